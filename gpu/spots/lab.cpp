// spots's lab facet: the work of a run (runWork); its tunable values are the recipes' defaults.
#include "gpu/facets/lab_facet.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"

namespace clscope::spots {

namespace {

class SpotsLab : public TypedLab<Algorithm> {
  protected:
    RunWork workWith(const Run& run) const override { return runWork(run.input()); }
};

} // namespace

std::shared_ptr<const Facet> labFacet() {
    return std::make_shared<SpotsLab>();
}

} // namespace clscope::spots
