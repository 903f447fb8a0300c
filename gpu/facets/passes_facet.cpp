// Algorithm's entry point of the passes facet: without one, the input is always read whole.
#include "gpu/facets/passes_facet.hpp"
#include "gpu/scale/passes.hpp"

namespace clscope {

std::unique_ptr<PassPlan> Algorithm::planPasses(const InputSources& sources, const ParamSet& params,
                                                std::uint64_t budgetBytes) const {
    const auto* f = facet<PassesFacet>();
    if (!f) return nullptr;
    return f->plan(sources, *parseBorrowed(nullptr, params), budgetBytes);
}

} // namespace clscope
