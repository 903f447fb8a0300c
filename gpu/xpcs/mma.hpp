// xpcs variant mma: the Gram matrices of uint8 chunks on NVIDIA's tensor cores (mma.sync
// m16n8k32 u8 through inline PTX), with a plain-C emulation of the same tiling for other
// devices (tuning MMA_EMULATE=1, how the tests run it on PoCL). Internal to gpu/xpcs.
#pragma once
#include "gpu/variant/variant.hpp"
#include "gpu/xpcs/runner.hpp"

#include <map>
#include <string>

namespace clscope::xpcs {

GpuVariant mmaVariant();

// Where the tensor-core kernel builds: NVIDIA's OpenCL on a GPU of compute capability 8.0 or
// newer where the driver says (mma.sync u8 needs sm_80+), with fp64.
Support mmaSupport(const DeviceInfo& device);

// Whether the tuning asks for the emulated tiling (runs on any OpenCL device).
bool mmaEmulated(const std::map<std::string, int>& tuning);

// UsageError when MMA_FLUSH_STEPS lets an s32 (or emulated MMA_EMU_BITS) partial sum overflow.
void checkMmaTuning(const std::map<std::string, int>& tuning);

} // namespace clscope::xpcs
