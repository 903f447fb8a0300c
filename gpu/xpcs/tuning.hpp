// The tuning table of xpcs: the values the host passes to a variant's programs for a device
// and data type, beyond the recipes' declared defaults (gpu/xpcs/recipes.hpp) — the mma
// settings per NVIDIA compute capability, gemm's uint8 paths, the CPU-device kernels. One
// table, read top to bottom, later rows over earlier ones.
#pragma once
#include "core/array.hpp"
#include "core/xpcs/xpcs.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"

#include <map>
#include <string>

namespace clscope::xpcs {

// The table's values for the dense OpenCL variant `variant` (GpuVariant::tuning) on `device`
// with frames of `dtype`.
TunableValues tuningTable(const std::string& variant, const DeviceInfo& device, DType dtype);

// The same as integers (the host plans with them: tiles, shapes, slots).
std::map<std::string, int> tuningOf(const std::string& variant, const DeviceInfo& device,
                                    DType dtype);

// The run's --tune value `name` (at least 1), else `fallback`: the host's planning knobs
// (MT_FRAMES, SP_WG, ...).
int tuned(const Params& params, const std::string& name, int fallback);

} // namespace clscope::xpcs
