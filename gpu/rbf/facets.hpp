// rbf's facets (gpu/facet.hpp), each made in its own file and registered by the Algorithm's
// constructor.
#pragma once
#include "gpu/facet.hpp"

#include <memory>

namespace clscope::rbf {

std::shared_ptr<const Facet> splitFacet();        // split.cpp: contiguous target ranges
std::shared_ptr<const Facet> passesFacet();       // passes.cpp: target ranges within a budget
std::shared_ptr<const Facet> syntheticFacet();    // synthetic.cpp
std::shared_ptr<const Facet> benchFacet();        // bench.cpp
std::shared_ptr<const Facet> labFacet();          // lab.cpp: host values, work
std::shared_ptr<const Facet> resultReaderFacet(); // result_reader.cpp: its output read back

} // namespace clscope::rbf
