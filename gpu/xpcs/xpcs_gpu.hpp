// xpcs on OpenCL devices: variants naive, ordered, gemm and mma (tensor cores, NVIDIA)
// next to the CPU reference `cpu`.
// Runs go through runAlgorithm() (gpu/algorithm.hpp); the dense dispatcher correlate() is
// internal to gpu/xpcs (runner.hpp).
#pragma once
#include "core/xpcs/xpcs.hpp"
#include "gpu/device_info.hpp"
#include "gpu/variant.hpp"

#include <string>

namespace clscope::xpcs {

// naive, ordered, gemm, mma and cpu (listed by xpcs::Algorithm, gpu/xpcs/algorithm.hpp).
std::vector<VariantEntry> xpcsVariants();

} // namespace clscope::xpcs
