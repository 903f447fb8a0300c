// The input and result types of rbf::Algorithm (algorithm.cpp, split.cpp, passes.cpp).
#pragma once
#include "core/rbf/rbf.hpp"
#include "gpu/algorithm.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::rbf {

// Sources, weights and targets; when the input is a sample of a larger one (the large bench
// case's reference), the original index of each target.
struct RbfInput : AlgorithmInput {
    Problem problem;
    std::vector<std::size_t> targetIndex;
    // A part of a split run: the whole problem's origin (Params::origin); empty: its own.
    std::optional<std::array<double, 3>> origin;
    std::string describe() const override;
};

struct RbfResult : AlgorithmResult {
    Result result;
    // /rbf/potential, the provenance attributes and the run's own sample check.
    void write(H5Writer& out, const std::string& group) const override;
    std::string summary() const override;
};

} // namespace clscope::rbf
