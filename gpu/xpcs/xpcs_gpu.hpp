// xpcs on OpenCL devices: variants naive, ordered, gemm and mma (tensor cores, NVIDIA)
// next to the CPU reference `cpu`.
// The one entry point for the GUI, the CLI, the tests and bench is correlate().
#pragma once
#include "core/xpcs/xpcs.hpp"
#include "gpu/device_info.hpp"
#include "gpu/variant.hpp"

#include <string>

namespace clscope::xpcs {

// Run variant (naive, ordered, gemm, mma or cpu; "" = defaultVariant) on a device; mma
// on frames other than uint8 runs gemm (its result says so). Throws
// InputError for bad inputs, UsageError for an unknown variant or one that cannot run on the
// device (with the reason), DeviceError for device trouble, Cancelled when cancelled.
Result correlate(const DeviceInfo& device, const std::string& variant, const Array& frames,
                 const LabelMask& mask, const Params& params = {}, const Progress& progress = {});

// gemm on OpenCL devices, cpu on the host reference.
std::string defaultVariant(const DeviceInfo& device);

// naive, ordered, gemm, mma and cpu (listed by xpcs::Algorithm, gpu/xpcs/algorithm.hpp).
std::vector<VariantEntry> xpcsVariants();

} // namespace clscope::xpcs
