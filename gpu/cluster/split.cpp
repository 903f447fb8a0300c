// cluster over several devices: the digis cut into contiguous module ranges with about the
// same number of digis each (input order kept within a part), the parts' ids put back at
// their input positions and their clusters concatenated (the ranges ascend, so the clusters
// stay ordered by module). Invalid digis belong to no part: their id stays -1.
#include "core/errors.hpp"
#include "gpu/cluster/algorithm.hpp"

#include <algorithm>
#include <map>

namespace clscope::cluster {

namespace {

// First module of each part: cuts where the running count passes k/parts of the digis.
std::vector<std::uint32_t> partStarts(const Digis& d, std::size_t parts) {
    std::map<std::uint16_t, std::size_t> perModule;
    std::size_t valid = 0;
    for (std::uint16_t m : d.module)
        if (m != invalidModule) ++perModule[m], ++valid;
    std::vector<std::uint32_t> starts;
    std::size_t seen = 0;
    for (const auto& [module, count] : perModule) {
        if (starts.empty() || seen * parts >= valid * starts.size()) starts.push_back(module);
        seen += count;
    }
    return starts;
}

} // namespace

std::vector<Algorithm::Part> ClusterAlgorithm::split(const AlgorithmInput& input,
                                                     const ParamSet& params,
                                                     std::size_t parts) const {
    const auto& whole = dynamic_cast<const ClusterInput&>(input);
    const Digis& d = whole.digis;
    const std::vector<std::uint32_t> starts = partStarts(d, std::max<std::size_t>(parts, 1));
    if (starts.size() < 2) return {{std::make_shared<ClusterInput>(whole), params}};
    std::vector<std::shared_ptr<ClusterInput>> pieces;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        pieces.push_back(std::make_shared<ClusterInput>(Digis{}));
        pieces.back()->provenance = input.provenance;
        pieces.back()->totalDigis = d.size();
    }
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (d.module[i] == invalidModule) continue;
        const auto k = std::size_t(std::upper_bound(starts.begin(), starts.end(), d.module[i]) -
                                   starts.begin() - 1);
        Digis& p = pieces[k]->digis;
        p.module.push_back(d.module[i]), p.x.push_back(d.x[i]), p.y.push_back(d.y[i]),
            p.adc.push_back(d.adc[i]);
        pieces[k]->origin.push_back(static_cast<std::uint32_t>(i));
    }
    std::vector<Part> out;
    for (auto& piece : pieces)
        out.push_back({piece, params});
    return out;
}

std::shared_ptr<AlgorithmResult>
ClusterAlgorithm::join(const std::vector<std::shared_ptr<AlgorithmResult>>& parts) const {
    if (parts.empty()) throw UsageError("cluster: nothing to join");
    const auto* first = dynamic_cast<const ClusterResult*>(parts.front().get());
    if (!first) throw UsageError("cluster: the result is not a cluster result");
    if (parts.size() == 1 && first->origin.empty()) return parts.front();
    Result joined;
    joined.id.assign(first->totalDigis, -1);
    for (const auto& part : parts) {
        const auto& r = dynamic_cast<const ClusterResult&>(*part);
        const Result& c = r.clusters;
        for (std::size_t i = 0; i < r.origin.size(); ++i)
            joined.id[r.origin[i]] = c.id[i];
        for (auto [to, from] : {std::pair{&joined.module, &c.module},
                                {&joined.size, &c.size},
                                {&joined.sizeX, &c.sizeX},
                                {&joined.sizeY, &c.sizeY}})
            to->insert(to->end(), from->begin(), from->end());
        for (auto [to, from] :
             {std::pair{&joined.charge, &c.charge}, {&joined.x, &c.x}, {&joined.y, &c.y}})
            to->insert(to->end(), from->begin(), from->end());
    }
    return std::make_shared<ClusterResult>(std::move(joined));
}

} // namespace clscope::cluster
