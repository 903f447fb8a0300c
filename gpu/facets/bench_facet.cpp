// Algorithm's entry points of the bench facet: an algorithm without one has no bench cases.
#include "gpu/facets/bench_facet.hpp"
#include "core/errors.hpp"

namespace clscope {

std::vector<std::string> Algorithm::benchSizes() const {
    const auto* f = facet<BenchFacet>();
    return f ? f->sizes() : std::vector<std::string>{};
}

BenchCase Algorithm::benchCase(const std::string& size) const {
    const auto* f = facet<BenchFacet>();
    if (!f) throw UsageError(id() + ": no bench cases");
    return f->benchCase(*this, size);
}

} // namespace clscope
