// cluster's lab facet: defaultTuning on the device, the run's tuning over it (hostValues), and
// the work of a run (runWork).
#include "gpu/cluster/algorithm.hpp"
#include "gpu/cluster/cluster_gpu.hpp"
#include "gpu/cluster/facets.hpp"
#include "gpu/cluster/recipes.hpp"
#include "gpu/facets/lab_facet.hpp"

namespace clscope::cluster {

namespace {

class ClusterLab : public TypedLab<Algorithm> {
  protected:
    TunableValues hostTunablesWith(const Run& run) const override {
        std::map<std::string, int> tuning = defaultTuning(run.request().device);
        for (const auto& [name, value] : run.params().tuning)
            tuning[name] = value;
        return hostValues(tuning);
    }
    RunWork workWith(const Run& run) const override { return runWork(run.input()); }
};

} // namespace

std::shared_ptr<const Facet> labFacet() {
    return std::make_shared<ClusterLab>();
}

} // namespace clscope::cluster
