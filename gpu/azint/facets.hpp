// azint's facets (gpu/facet.hpp), each made in its own file and registered by the Algorithm's
// constructor.
#pragma once
#include "gpu/facet.hpp"

#include <memory>

namespace clscope::azint {

std::shared_ptr<const Facet> splitFacet();          // split.cpp: contiguous frame ranges
std::shared_ptr<const Facet> passesFacet();         // passes.cpp: frame ranges within a budget
std::shared_ptr<const Facet> syntheticFacet();      // synthetic.cpp: powder rings with a geometry
std::shared_ptr<const Facet> benchFacet();          // bench.cpp: seed, large, stream
std::shared_ptr<const Facet> labFacet();            // lab.cpp: host values, work
std::shared_ptr<const Facet> resultReaderFacet();   // result_reader.cpp: /azint read back
std::shared_ptr<const Facet> streamFacet();         // stream.cpp: live frames on one device
std::shared_ptr<const Facet> resultCommandsFacet(); // roi_command.cpp: `roi`

} // namespace clscope::azint
