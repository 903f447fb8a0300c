// Algorithm's entry point of the outputs facet: without one, no side outputs.
#include "gpu/facets/outputs_facet.hpp"

namespace clscope {

std::vector<std::pair<std::string, std::string>>
Algorithm::sideOutputs(const AlgorithmResult& result, const ParamSet& params) const {
    const auto* f = facet<OutputsFacet>();
    if (!f) return {};
    return f->sideOutputs(result, *parseBorrowed(nullptr, params));
}

} // namespace clscope
