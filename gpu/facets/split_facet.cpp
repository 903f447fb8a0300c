// Algorithm's entry points of the split facet, and what an algorithm without one does.
#include "gpu/facets/split_facet.hpp"
#include "core/errors.hpp"

namespace clscope {

std::vector<Algorithm::Part> Algorithm::split(const AlgorithmInput& input, const ParamSet& params,
                                              std::size_t parts, const std::string& variant) const {
    const auto* f = facet<SplitFacet>();
    if (!f) return {};
    return f->split(*parseBorrowed(&input, params, {}, variant), parts);
}

std::shared_ptr<AlgorithmResult>
Algorithm::join(const std::vector<std::shared_ptr<AlgorithmResult>>& parts) const {
    const auto* f = facet<SplitFacet>();
    if (!f) throw UsageError(id() + " cannot join results of several devices");
    return f->join(*this, parts);
}

std::string Algorithm::unsplittable(const std::string& variant) const {
    const auto* f = facet<SplitFacet>();
    return f ? f->unsplittable(variant) : std::string();
}

SplitWork Algorithm::splitWork(const AlgorithmInput& input, const ParamSet& params,
                               const std::string& variant) const {
    const auto* f = facet<SplitFacet>();
    if (!f) return {};
    return f->splitWork(*parseBorrowed(&input, params, {}, variant));
}

} // namespace clscope
