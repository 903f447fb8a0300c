// xpcs's facets (gpu/facet.hpp), each made in its own file and registered by the Algorithm's
// constructor.
#pragma once
#include "gpu/facet.hpp"

#include <memory>

namespace clscope::xpcs {

std::shared_ptr<const Facet> splitFacet();          // split.cpp: groups of bins
std::shared_ptr<const Facet> passesFacet();         // passes.cpp: groups of bins within a budget
std::shared_ptr<const Facet> streamFacet();         // stream.cpp: live multi-tau
std::shared_ptr<const Facet> syntheticFacet();      // synthetic.cpp
std::shared_ptr<const Facet> benchFacet();          // compare_bench.cpp
std::shared_ptr<const Facet> labFacet();            // lab.cpp: tuning table, work
std::shared_ptr<const Facet> layoutsFacet();        // layouts.cpp: --layout aps, nxxpcs
std::shared_ptr<const Facet> resultReaderFacet();   // result_reader.cpp: its output read back
std::shared_ptr<const Facet> resultCommandsFacet(); // average_command.cpp: `average`

} // namespace clscope::xpcs
