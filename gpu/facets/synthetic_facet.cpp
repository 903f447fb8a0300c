// Algorithm's entry point of the synthetic facet: an algorithm without one generates nothing.
#include "gpu/facets/synthetic_facet.hpp"

namespace clscope {

std::vector<SyntheticKind> Algorithm::syntheticKinds() const {
    const auto* f = facet<SyntheticFacet>();
    return f ? f->kinds() : std::vector<SyntheticKind>{};
}

} // namespace clscope
