// The synthetic datasets an algorithm writes (Algorithm::syntheticKinds): `clscope-cli
// generate` and the GUI's Generate dialog.
#pragma once
#include "gpu/algorithm.hpp"

#include <vector>

namespace clscope {

class SyntheticFacet : public Facet {
  public:
    // The first is the algorithm's demo's.
    virtual std::vector<SyntheticKind> kinds() const = 0;
};

} // namespace clscope
