// The input and result types of azint::Algorithm (algorithm.cpp, result.cpp).
#pragma once
#include "core/azint/azint.hpp"
#include "gpu/algorithm.hpp"

#include <string>

namespace clscope::azint {

// The frames with their masks and the geometry that maps their pixels (its origin: the PONI
// or .expt file, or the input file's geometry group, for the provenance and the GUI).
class AzintInput : public AlgorithmInput {
  public:
    Input data;
    Geometry geometry;
    std::string geometryOrigin;
    std::string describe() const override;
    // The same input with no frames (the parts of a split or of passes fill theirs).
    AzintInput withoutFrames() const;
};

class AzintResult : public AlgorithmResult {
  public:
    Result result;
    // /azint/radial (with units), /azimuthal (cake), /intensity, /error, /count, /sum_signal,
    // /sum_normalization and the provenance attributes.
    void write(H5Writer& out, const std::string& group) const override;
    std::string summary() const override;
};

} // namespace clscope::azint
