// The synthetic inputs `clscope-cli bench` and the kernel lab run (Algorithm::benchSizes,
// benchCase).
#pragma once
#include "gpu/algorithm.hpp"

#include <string>
#include <vector>

namespace clscope {

class BenchFacet : public Facet {
  public:
    // "seed" and "large" at least.
    virtual std::vector<std::string> sizes() const { return {"seed", "large"}; }
    // The case of that size (its parameters from algorithm's); UsageError for another size.
    virtual BenchCase benchCase(const Algorithm& algorithm, const std::string& size) const = 0;
};

} // namespace clscope
