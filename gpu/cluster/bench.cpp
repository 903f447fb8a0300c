// cluster's bench facet: the seed and large events and 35 events batched.
#include "core/cluster/synthetic.hpp"
#include "core/errors.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "gpu/cluster/facets.hpp"
#include "gpu/facets/bench_facet.hpp"

namespace clscope::cluster {

namespace {

// events: 35 seed-size events (seeds 1..35) in one input, event e's modules renumbered
// e*1856 + m (35 * 1856 = 64960 ids below the invalid 65534): modules are clustered
// independently, so this is 35 events' clustering in one launch sequence (charge cut none).
std::shared_ptr<ClusterInput> batchedEvents(std::size_t events) {
    Digis all;
    for (std::size_t e = 0; e < events; ++e) {
        synthetic::DigisParams p;
        p.seed = e + 1;
        const Digis one = synthetic::generateDigis(p);
        for (std::size_t i = 0; i < one.size(); ++i) {
            const bool invalid = one.module[i] == Digis::invalidModule;
            all.module.push_back(invalid
                                     ? one.module[i]
                                     : static_cast<std::uint16_t>(e * p.modules + one.module[i]));
            all.x.push_back(one.x[i]), all.y.push_back(one.y[i]), all.adc.push_back(one.adc[i]);
        }
    }
    return std::make_shared<ClusterInput>(std::move(all));
}

// seed and large (one event, large at 10x occupancy) and 35 events batched.
class DigisBench : public BenchFacet {
  public:
    std::vector<std::string> sizes() const override { return {"seed", "large", "events"}; }
    BenchCase benchCase(const clscope::Algorithm& algorithm,
                        const std::string& size) const override;
};

BenchCase DigisBench::benchCase(const clscope::Algorithm& algorithm,
                                const std::string& size) const {
    if (size == "events") {
        constexpr std::size_t events = 35;
        BenchCase c;
        c.input = batchedEvents(events);
        c.work = static_cast<double>(events);
        c.description = std::to_string(events) +
                        " Phase-1 events (PU ~50) batched as module-id "
                        "ranges: " +
                        c.input->describe();
        c.params = algorithm.defaultParams();
        c.unit = "events/s";
        return c;
    }
    synthetic::DigisParams p;
    if (size == "large")
        p.clustersPerModule *= 10;
    else if (size != "seed")
        throw UsageError("cluster: no bench size '" + size + "' (seed, large, events)");
    auto input = std::make_shared<ClusterInput>(synthetic::generateDigis(p));
    BenchCase c;
    c.work = static_cast<double>(input->digis.size());
    c.description = "Phase-1 event" +
                    std::string(size == "large" ? " at 10x occupancy" : " (PU ~50)") + ": " +
                    input->describe() + " in 1856 modules";
    c.input = input;
    c.params = algorithm.defaultParams();
    c.unit = "Mdigis/s";
    c.unitScale = 1e6;
    return c;
}

} // namespace

std::shared_ptr<const Facet> benchFacet() {
    return std::make_shared<DigisBench>();
}

} // namespace clscope::cluster
