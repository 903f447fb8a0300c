// Algorithm's entry points of the layouts facet: without one, no layout besides clscope's.
#include "gpu/facets/layouts_facet.hpp"

#include "core/errors.hpp"

#include <algorithm>

namespace clscope {

namespace {

// The facet when `layout` is one of its layouts; UsageError naming the algorithm's layouts.
const LayoutsFacet& facetOf(const Algorithm& algorithm, const LayoutsFacet* facet,
                            const std::string& layout) {
    std::string names = "clscope";
    for (const OutputLayout& l : algorithm.outputLayouts())
        names += ", " + l.name;
    const auto layouts = facet ? facet->layouts() : std::vector<OutputLayout>{};
    const bool known = std::any_of(layouts.begin(), layouts.end(),
                                   [&](const OutputLayout& l) { return l.name == layout; });
    if (!known)
        throw UsageError(algorithm.command() + " has no layout " + layout +
                         " (its layouts: " + names + ")");
    return *facet;
}

} // namespace

std::string layoutSuffix(const Algorithm& algorithm, const std::string& layout) {
    const auto* f = algorithm.facet<LayoutsFacet>();
    return f ? f->suffix(layout) : "h5";
}

std::vector<OutputLayout> Algorithm::outputLayouts() const {
    const auto* f = facet<LayoutsFacet>();
    return f ? f->layouts() : std::vector<OutputLayout>{};
}

void Algorithm::checkLayout(const std::string& layout, const InputSources& sources,
                            const ParamSet& params) const {
    facetOf(*this, facet<LayoutsFacet>(), layout)
        .check(layout, sources, *parseBorrowed(nullptr, params));
}

LayoutOutput Algorithm::layoutOutput(const std::string& layout,
                                     const std::shared_ptr<AlgorithmResult>& result,
                                     const AlgorithmInput* input, const InputSources& sources,
                                     const ParamSet& params) const {
    return facetOf(*this, facet<LayoutsFacet>(), layout)
        .output(layout, result, sources, *parseBorrowed(input, params));
}

} // namespace clscope
