// The toy's facets (gpu/facet.hpp), each made in its own file and registered by its
// constructor, as every algorithm's are.
#pragma once
#include "gpu/facet.hpp"

#include <memory>

namespace clscope::toy {

std::shared_ptr<const Facet> splitFacet();     // split.cpp: frame ranges
std::shared_ptr<const Facet> passesFacet();    // passes.cpp: frame ranges within a budget
std::shared_ptr<const Facet> syntheticFacet(); // synthetic.cpp: `generate toyframes`
std::shared_ptr<const Facet> benchFacet();     // bench.cpp

} // namespace clscope::toy
