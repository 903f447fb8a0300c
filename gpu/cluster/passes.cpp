// cluster within a memory budget: passes over contiguous module ranges whose digis fit. The
// module column is counted chunk by chunk first; each pass then reads every column chunk by
// chunk and keeps its modules' digis (input order kept), so each pass is the split part that
// Algorithm::split would make, and join() puts the ids back at their input positions.
#include "gpu/scale/passes.hpp"
#include "core/cluster/digis.hpp"
#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "gpu/cluster/facets.hpp"
#include "gpu/facets/passes_facet.hpp"

#include <map>

namespace clscope {

namespace {

// Host bytes per digi in a pass: the digi (8), its origin (4), its id (4), cluster outputs.
constexpr std::uint64_t bytesPerDigi = 32;

class ClusterPlan : public PassPlan {
  public:
    std::string file, group;
    std::size_t total = 0, chunk = 1;
    std::vector<std::pair<std::uint16_t, std::uint16_t>> ranges; // modules [lo, hi] per pass
    ParamSet params;

    std::size_t count() const override { return ranges.size(); }

    Algorithm::Part read(std::size_t pass) const override {
        const auto [lo, hi] = ranges[pass];
        auto part = std::make_shared<cluster::ClusterInput>(Digis{});
        part->totalDigis = total, part->provenance = provenance;
        Digis& d = part->digis;
        const H5Reader reader(file);
        for (std::size_t first = 0; first < total; first += chunk) {
            const Digis c = readDigiRange(reader, group, first, std::min(chunk, total - first));
            for (std::size_t i = 0; i < c.size(); ++i) {
                if (c.module[i] == Digis::invalidModule || c.module[i] < lo || c.module[i] > hi)
                    continue;
                d.module.push_back(c.module[i]), d.x.push_back(c.x[i]), d.y.push_back(c.y[i]),
                    d.adc.push_back(c.adc[i]);
                part->origin.push_back(static_cast<std::uint32_t>(first + i));
            }
        }
        return {part, params};
    }

    void adopt(AlgorithmResult& result, const Algorithm::Part& part) const override {
        auto& r = resultOf<cluster::ClusterResult>(result, "cluster");
        // The part is this plan's own: read() above made it.
        const auto& in = static_cast<const cluster::ClusterInput&>(*part.input);
        r.origin = in.origin, r.totalDigis = in.totalDigis; // also after a multi-device join
    }
};

// Digis per valid module, counted a chunk at a time.
std::map<std::uint16_t, std::uint64_t> digisPerModule(const H5Reader& reader,
                                                      const std::string& group, std::size_t total,
                                                      std::size_t chunk) {
    std::map<std::uint16_t, std::uint64_t> perModule;
    for (std::size_t first = 0; first < total; first += chunk)
        for (std::uint16_t m :
             readUInt16Range(reader, group + "/module", first, std::min(chunk, total - first)))
            if (m != Digis::invalidModule) ++perModule[m];
    return perModule;
}

} // namespace

} // namespace clscope

namespace clscope::cluster {

namespace {

// Contiguous module ranges whose digis fit the budget.
std::unique_ptr<PassPlan> planModulePasses(const InputSources& sources, const Algorithm::Run& run,
                                           std::uint64_t budget) {
    const InputRole digis = run.algorithm().role("digis");
    const DataLocation where = sources.locate(digis);
    const H5Reader reader(where.file);
    const std::size_t total = digiCount(reader, where.path);
    if (budgetBytes(total, bytesPerDigi, "digis") <= budget) return nullptr;
    auto plan = std::make_unique<ClusterPlan>();
    plan->file = where.file, plan->group = where.path, plan->total = total;
    plan->params = run.values();
    plan->provenance = inputProvenance(sources, {digis});
    // A quarter of the budget for the chunk being read, the rest for the pass's digis.
    plan->chunk = std::max<std::size_t>(1, budget / 4 / 72); // 4 columns, read and converted
    const std::uint64_t room = budget - budget / 4;
    std::uint64_t used = room + 1;
    for (const auto& [module, n] : digisPerModule(reader, where.path, total, plan->chunk)) {
        const std::uint64_t need = budgetBytes(n, bytesPerDigi, "digis");
        if (need > room)
            overBudget("the " + std::to_string(n) + " digis of module " + std::to_string(module),
                       need, budget);
        if (used + need > room) plan->ranges.push_back({module, module}), used = 0;
        plan->ranges.back().second = module, used += need;
    }
    if (plan->ranges.empty()) return nullptr; // no valid digi: nothing to stream
    return plan;
}

} // namespace

std::shared_ptr<const Facet> passesFacet() {
    return std::make_shared<PassesOf<Algorithm>>(&planModulePasses);
}

} // namespace clscope::cluster
