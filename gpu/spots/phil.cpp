// spots's outputs facet: --phil OUT.phil, the DIALS spotfinder snippet of the run's parameters.
#include "gpu/facets/outputs_facet.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"

namespace clscope::spots {

namespace {

class PhilOutput : public TypedOutputs<Algorithm> {
  protected:
    // The snippet is the parameters, whatever the result ("Auto" stays Auto: DIALS estimates
    // it).
    std::vector<std::pair<std::string, std::string>>
    sideOutputsWith(const SpotsResult&, const Run& run) const override {
        const ParamSet& values = run.values();
        if (!values.has("phil") || values.text("phil").empty()) return {};
        return {{values.text("phil"), philSnippet(run.params())}};
    }
};

} // namespace

std::shared_ptr<const Facet> outputsFacet() {
    return std::make_shared<PhilOutput>();
}

} // namespace clscope::spots
