// rbf's lab facet: runTuning and the input's values (hostValues), as the run builds them, and
// the work of a run (runWork).
#include "gpu/facets/lab_facet.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/rbf/facets.hpp"
#include "gpu/rbf/rbf_gpu.hpp"
#include "gpu/rbf/recipes.hpp"

namespace clscope::rbf {

namespace {

class RbfLab : public TypedLab<Algorithm> {
  protected:
    TunableValues hostTunablesWith(const Run& run) const override;
    RunWork workWith(const Run& run) const override { return runWork(run.input(), run.params()); }
};

TunableValues RbfLab::hostTunablesWith(const Run& run) const {
    const RbfInput& input = run.input();
    const Params& params = run.params();
    Problem storage;
    const Problem& problem = withPlanes(input.problem, params.planes, storage);
    const Flavour& flavour = variantSet().find(run.request().variant).traits;
    return hostValues(problem, params, flavour.fp64,
                      runTuning(flavour, run.request().device, problem, params));
}

} // namespace

std::shared_ptr<const Facet> labFacet() {
    return std::make_shared<RbfLab>();
}

} // namespace clscope::rbf
