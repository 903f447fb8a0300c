// The CPU reference of cluster: a stable counting sort by module, then per module a dense
// pixel grid for duplicates and neighbours and a union-find whose roots are the lowest digi.
#include "core/cluster/cluster.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <thread>

namespace clscope::cluster {

namespace {

constexpr std::size_t moduleIds = 65536;

// Digi indices grouped by module, each module's digis in input order (invalid ones left out).
struct Grouping {
    std::vector<std::uint32_t> order;
    std::vector<std::uint16_t> modules;     // modules with digis, ascending
    std::vector<std::uint32_t> moduleBegin; // per entry of modules, plus the end
};

Grouping groupByModule(const Digis& d) {
    std::vector<std::uint32_t> start(moduleIds + 1, 0);
    for (std::uint16_t m : d.module)
        if (m != invalidModule) ++start[m + 1];
    Grouping g;
    for (std::size_t m = 0; m < moduleIds; ++m) {
        if (start[m + 1] > 0) g.modules.push_back(static_cast<std::uint16_t>(m));
        start[m + 1] += start[m];
    }
    for (std::uint16_t m : g.modules)
        g.moduleBegin.push_back(start[m]);
    g.moduleBegin.push_back(start[moduleIds]);
    g.order.resize(start[moduleIds]);
    for (std::size_t i = 0; i < d.size(); ++i)
        if (d.module[i] != invalidModule)
            g.order[start[d.module[i]]++] = static_cast<std::uint32_t>(i);
    return g;
}

// Per-thread working memory: the module's pixel grid (local digi index or -1) and digi state.
struct Scratch {
    std::vector<std::int32_t> grid = std::vector<std::int32_t>(moduleSizeX * moduleSizeY, -1);
    std::vector<std::int32_t> parent, rank;
    std::vector<std::uint8_t> duplicate;
    std::vector<std::uint64_t> charge;
};

std::int32_t findRoot(std::vector<std::int32_t>& parent, std::int32_t k) {
    while (parent[k] != k)
        k = parent[k] = parent[parent[k]];
    return k;
}

// Link the two trees under the lower root, so a root is the lowest digi of its cluster.
void unite(std::vector<std::int32_t>& parent, std::int32_t a, std::int32_t b) {
    a = findRoot(parent, a), b = findRoot(parent, b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
}

// Mark every copy of a (x, y) seen more than once; the grid keeps the first copy.
void markDuplicates(const Digis& d, const std::uint32_t* digis, std::size_t n, Scratch& s) {
    for (std::size_t k = 0; k < n; ++k) {
        std::int32_t& cell = s.grid[d.y[digis[k]] * moduleSizeX + d.x[digis[k]]];
        if (cell < 0)
            cell = static_cast<std::int32_t>(k);
        else
            s.duplicate[k] = s.duplicate[cell] = 1;
    }
}

// Union every pair of 8-neighbours (each pair once: the four forward offsets).
void joinNeighbours(const Digis& d, const std::uint32_t* digis, std::size_t n, Scratch& s) {
    static constexpr std::array<std::array<int, 2>, 4> forward{{{1, 0}, {-1, 1}, {0, 1}, {1, 1}}};
    for (std::size_t k = 0; k < n; ++k) {
        if (s.duplicate[k]) continue;
        for (const auto& [dx, dy] : forward) {
            const int x = d.x[digis[k]] + dx, y = d.y[digis[k]] + dy;
            if (x < 0 || x >= moduleSizeX || y >= moduleSizeY) continue;
            const std::int32_t j = s.grid[y * moduleSizeX + x];
            if (j >= 0 && !s.duplicate[j]) unite(s.parent, static_cast<std::int32_t>(k), j);
        }
    }
}

// Cluster one module: ids of its digis into `ids`, its clusters' sums appended to `sums`.
void clusterModule(const Digis& d, std::uint16_t module, const std::uint32_t* digis, std::size_t n,
                   const ChargeCut& cut, Scratch& s, std::int32_t* ids,
                   std::vector<ClusterSums>& sums) {
    s.parent.resize(n), s.rank.assign(n, -1), s.duplicate.assign(n, 0), s.charge.assign(n, 0);
    std::iota(s.parent.begin(), s.parent.end(), 0);
    markDuplicates(d, digis, n, s);
    joinNeighbours(d, digis, n, s);
    for (std::size_t k = 0; k < n; ++k)
        if (!s.duplicate[k])
            s.charge[findRoot(s.parent, static_cast<std::int32_t>(k))] += d.adc[digis[k]];
    // Surviving roots numbered in the order of their lowest digi, which is the root itself.
    const std::uint64_t threshold = cut.threshold(module);
    const std::size_t first = sums.size();
    for (std::size_t k = 0; k < n; ++k)
        if (!s.duplicate[k] && s.parent[k] == std::int32_t(k) && s.charge[k] >= threshold) {
            s.rank[k] = static_cast<std::int32_t>(sums.size() - first);
            sums.emplace_back().module = module;
        }
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t i = digis[k];
        const std::int32_t id = s.duplicate[k] ? -1 : s.rank[s.parent[k]];
        ids[i] = id;
        if (id >= 0) sums[first + id].add(d.x[i], d.y[i], d.adc[i]);
        s.grid[d.y[i] * moduleSizeX + d.x[i]] = -1;
    }
}

// Modules [begin, end) of the grouping on one thread.
void clusterModules(const Digis& d, const Grouping& g, std::size_t begin, std::size_t end,
                    const ChargeCut& cut, std::int32_t* ids, std::vector<ClusterSums>& sums,
                    const Progress& progress) {
    Scratch scratch;
    for (std::size_t k = begin; k < end; ++k) {
        const std::uint32_t first = g.moduleBegin[k], last = g.moduleBegin[k + 1];
        clusterModule(d, g.modules[k], g.order.data() + first, last - first, cut, scratch, ids,
                      sums);
        if ((k & 255) == 0 && progress.cancelled()) return;
    }
}

} // namespace

Result clusterReference(const Digis& digis, const Params& params, const Progress& progress) {
    checkDigis(digis);
    const Grouping g = groupByModule(digis);
    std::vector<std::int32_t> ids(digis.size(), -1);
    // Threads take module ranges of about equal digi counts; small events run on one.
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t wanted = params.threads ? params.threads : hardware;
    const std::size_t threads = std::max<std::size_t>(1, std::min(wanted, g.order.size() / 8192));
    std::vector<std::size_t> split{0};
    for (std::size_t t = 1; t < threads; ++t) {
        const std::uint32_t target = static_cast<std::uint32_t>(g.order.size() * t / threads);
        split.push_back(std::lower_bound(g.moduleBegin.begin(), g.moduleBegin.end() - 1, target) -
                        g.moduleBegin.begin());
    }
    split.push_back(g.modules.size());
    std::vector<std::vector<ClusterSums>> parts(threads);
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back(clusterModules, std::cref(digis), std::cref(g), split[t], split[t + 1],
                          std::cref(params.chargeCut), ids.data(), std::ref(parts[t]),
                          std::cref(progress));
    clusterModules(digis, g, split[0], split[1], params.chargeCut, ids.data(), parts[0], progress);
    for (std::thread& t : pool)
        t.join();
    progress.checkCancel();
    std::vector<ClusterSums> sums;
    for (auto& part : parts)
        sums.insert(sums.end(), part.begin(), part.end());
    Result r = makeResult(std::move(ids), sums);
    r.variant = "cpu";
    r.device = "cpu";
    progress.report(1.0);
    return r;
}

} // namespace clscope::cluster
