// spots's facets (gpu/facet.hpp), each made in its own file and registered by the Algorithm's
// constructor.
#pragma once
#include "gpu/facet.hpp"

#include <memory>

namespace clscope::spots {

std::shared_ptr<const Facet> splitFacet();        // split.cpp: frame ranges or bands of rows
std::shared_ptr<const Facet> passesFacet();       // passes.cpp: frame ranges within a budget
std::shared_ptr<const Facet> streamFacet();       // stream.cpp: live 2-D spots
std::shared_ptr<const Facet> syntheticFacet();    // synthetic.cpp
std::shared_ptr<const Facet> benchFacet();        // bench.cpp
std::shared_ptr<const Facet> labFacet();          // lab.cpp: work
std::shared_ptr<const Facet> outputsFacet();      // phil.cpp: --phil OUT.phil
std::shared_ptr<const Facet> layoutsFacet();      // layouts.cpp: --layout dials
std::shared_ptr<const Facet> resultReaderFacet(); // result_reader.cpp: its output read back

} // namespace clscope::spots
