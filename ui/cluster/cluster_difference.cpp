// partitionDifference: which digis two runs put into different clusters. Cluster numbers are
// only compared through the sets they make, so a merge that renumbers the module's later
// clusters flags the merged digis alone.
#include "core/cluster/digis.hpp"
#include "core/errors.hpp"
#include "ui/cluster/cluster_presenter.hpp"

#include <algorithm>
#include <unordered_map>

namespace clscope::ui {

namespace {

std::uint64_t clusterKey(std::uint16_t module, std::int32_t id) {
    return (std::uint64_t(module) << 32) | std::uint32_t(id);
}
std::uint64_t pairKey(std::uint16_t module, std::int32_t a, std::int32_t b) {
    return (std::uint64_t(module) << 40) | (std::uint64_t(std::uint32_t(a)) << 20) |
           std::uint32_t(b);
}

void checkIds(const Digis& digis, const cluster::Result& r, const char* which) {
    if (r.id.size() != digis.size())
        throw InputError(std::string("cluster difference: run ") + which + " has " +
                         std::to_string(r.id.size()) + " cluster ids for " +
                         std::to_string(digis.size()) + " digis");
}

} // namespace

PartitionDifference partitionDifference(const Digis& digis, const cluster::Result& a,
                                        const cluster::Result& b) {
    checkIds(digis, a, "a");
    checkIds(digis, b, "b");
    // Digis per cluster in each run, and per (cluster in a, cluster in b) pair.
    std::unordered_map<std::uint64_t, std::size_t> inA, inB, inBoth;
    std::size_t modules = 0;
    for (std::size_t i = 0; i < digis.size(); ++i) {
        const std::uint16_t m = digis.module[i];
        if (m != cluster::invalidModule) modules = std::max<std::size_t>(modules, m + 1u);
        if (a.id[i] < 0 || b.id[i] < 0) continue;
        ++inA[clusterKey(m, a.id[i])];
        ++inB[clusterKey(m, b.id[i])];
        ++inBoth[pairKey(m, a.id[i], b.id[i])];
    }
    PartitionDifference diff;
    diff.perModule.assign(modules, 0.0);
    for (std::size_t i = 0; i < digis.size(); ++i) {
        const std::uint16_t m = digis.module[i];
        bool differs = (a.id[i] < 0) != (b.id[i] < 0);
        if (a.id[i] >= 0 && b.id[i] >= 0) {
            const std::size_t both = inBoth[pairKey(m, a.id[i], b.id[i])];
            differs = both != inA[clusterKey(m, a.id[i])] || both != inB[clusterKey(m, b.id[i])];
        }
        if (!differs) continue;
        diff.digis.push_back(i);
        if (m != cluster::invalidModule) diff.perModule[m] += 1;
    }
    for (double count : diff.perModule)
        diff.modulesWithDifferences += count > 0;
    return diff;
}

} // namespace clscope::ui
