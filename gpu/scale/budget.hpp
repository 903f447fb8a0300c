// The memory budget of one run (--memory-budget): how much input a pass may hold.
#pragma once
#include "gpu/runtime/device_info.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clscope {

// "1048576", "512K", "64M", "2G", "1T" (powers of 1024; "KiB", "MB" ... accepted too).
// UsageError naming the text otherwise, or when it is 0 or does not fit 64 bits.
std::uint64_t parseByteSize(const std::string& text);

// Half the host memory that is free now (availableHostMemory, so CLSCOPE_MEMORY_LIMIT lowers
// it), and at most half the smallest global memory of the OpenCL devices given.
std::uint64_t defaultMemoryBudget(const std::vector<DeviceInfo>& devices);

} // namespace clscope
