// cluster over several devices: the modules dealt to the parts largest first, each to the part
// with the fewest digis so far (so the parts get about the same digis and the same share of the
// largest modules, which bound the per-module kernels: a contiguous range of module ids put
// every large inner-barrel module on one device); input order kept within a part. The parts'
// ids (numbers within a module) go back to their input positions and their clusters are merged
// into module order. Invalid digis belong to no part: their id stays -1.
#include "core/cluster/digis.hpp"
#include "core/errors.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "gpu/cluster/facets.hpp"
#include "gpu/facets/split_facet.hpp"

#include <algorithm>
#include <vector>

namespace clscope::cluster {

namespace {

// The part of each module id (a module without valid digis: none).
std::vector<std::uint8_t> partOfModules(const Digis& d, std::size_t parts) {
    std::vector<std::size_t> count(std::size_t(invalidModule) + 1, 0);
    for (std::uint16_t m : d.module)
        if (m != invalidModule) ++count[m];
    std::vector<std::uint16_t> modules;
    for (std::size_t m = 0; m < count.size(); ++m)
        if (count[m]) modules.push_back(std::uint16_t(m));
    std::stable_sort(modules.begin(), modules.end(),
                     [&](std::uint16_t a, std::uint16_t b) { return count[a] > count[b]; });
    std::vector<std::uint8_t> part(count.size(), 0);
    std::vector<std::size_t> load(std::min(parts, modules.size()), 0);
    for (std::uint16_t m : modules) {
        const auto k = std::size_t(std::min_element(load.begin(), load.end()) - load.begin());
        part[m] = std::uint8_t(k), load[k] += count[m];
    }
    return part;
}

// The clusters of the parts merged into module order (a module's clusters are all in one part,
// in order).
Result mergeClusters(const std::vector<const Result*>& parts, std::size_t digis) {
    struct Entry {
        std::int32_t module;
        std::uint32_t part, index;
    };
    std::vector<Entry> order;
    for (std::size_t k = 0; k < parts.size(); ++k)
        for (std::size_t c = 0; c < parts[k]->module.size(); ++c)
            order.push_back({parts[k]->module[c], std::uint32_t(k), std::uint32_t(c)});
    std::stable_sort(order.begin(), order.end(),
                     [](const Entry& a, const Entry& b) { return a.module < b.module; });
    Result joined;
    joined.id.assign(digis, -1);
    auto gather = [&](auto member) {
        auto& to = joined.*member;
        to.reserve(order.size());
        for (const Entry& e : order)
            to.push_back((parts[e.part]->*member)[e.index]);
    };
    gather(&Result::module), gather(&Result::size), gather(&Result::sizeX), gather(&Result::sizeY);
    gather(&Result::charge), gather(&Result::x), gather(&Result::y);
    return joined;
}

// The modules dealt to the parts; clusters never cross modules, so the joined result (clusters
// merged into module order) equals one run's.
class ModuleSplit : public TypedSplit<Algorithm> {
  protected:
    // Modules share out the digis and the kernels: `cmssw` ran 35 events of 2.06 million
    // digis in 2.1 ms on an H200 (`unionfind` 1.1 ms), about 1e9 digis a second.
    SplitWork splitWorkWith(const Run& run) const override {
        const ClusterInput& in = run.input();
        return {runWork(in).bytes, double(in.digis.size()) / 1e9 * 1e3};
    }
    std::vector<Algorithm::Part> splitWith(const Run& run, std::size_t parts) const override;
    std::shared_ptr<AlgorithmResult>
    joinWith(const std::vector<std::shared_ptr<ClusterResult>>& parts) const override;
};

std::vector<Algorithm::Part> ModuleSplit::splitWith(const Run& run, std::size_t parts) const {
    const ClusterInput& whole = run.input();
    const ParamSet& params = run.values();
    const Digis& d = whole.digis;
    parts = std::min<std::size_t>(std::max<std::size_t>(parts, 1), 255);
    const std::vector<std::uint8_t> partOf = partOfModules(d, parts);
    std::vector<std::shared_ptr<ClusterInput>> pieces;
    for (std::size_t k = 0; k < parts; ++k) {
        pieces.push_back(std::make_shared<ClusterInput>(Digis{}));
        pieces.back()->provenance = whole.provenance;
        pieces.back()->totalDigis = d.size();
    }
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (d.module[i] == invalidModule) continue;
        ClusterInput& piece = *pieces[partOf[d.module[i]]];
        Digis& p = piece.digis;
        p.module.push_back(d.module[i]), p.x.push_back(d.x[i]), p.y.push_back(d.y[i]),
            p.adc.push_back(d.adc[i]);
        piece.origin.push_back(static_cast<std::uint32_t>(i));
    }
    std::erase_if(pieces, [](const auto& piece) { return piece->digis.size() == 0; });
    if (pieces.size() < 2) return {{std::make_shared<ClusterInput>(whole), params}};
    std::vector<Algorithm::Part> out;
    for (auto& piece : pieces)
        out.push_back({piece, params});
    return out;
}

std::shared_ptr<AlgorithmResult>
ModuleSplit::joinWith(const std::vector<std::shared_ptr<ClusterResult>>& parts) const {
    if (parts.empty()) throw UsageError("cluster: nothing to join");
    const ClusterResult* first = parts.front().get();
    if (parts.size() == 1 && first->origin.empty()) return parts.front();
    std::vector<const Result*> results;
    for (const auto& part : parts)
        results.push_back(&part->clusters);
    Result joined = mergeClusters(results, first->totalDigis);
    for (const auto& part : parts) {
        const ClusterResult& r = *part;
        for (std::size_t i = 0; i < r.origin.size(); ++i)
            joined.id[r.origin[i]] = r.clusters.id[i];
    }
    return std::make_shared<ClusterResult>(std::move(joined));
}

} // namespace

std::shared_ptr<const Facet> splitFacet() {
    return std::make_shared<ModuleSplit>();
}

} // namespace clscope::cluster
