// Guards shared by every reader, generator and command: checked size arithmetic and the
// host memory that is free, so that nothing allocates what a file merely declares.
#pragma once
#include "core/array.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace clscope {

// The product of the dimensions times elementBytes, or nothing when it does not fit 64 bits.
std::optional<std::uint64_t> checkedBytes(const Shape& shape, std::size_t elementBytes);

// Memory the kernel says a new allocation can get (/proc/meminfo MemAvailable; physical
// memory where that is missing). CLSCOPE_MEMORY_LIMIT (bytes) lowers it, e.g. for tests.
std::uint64_t availableHostMemory();

// "1.2 GiB", "340 MiB", "12 KiB", "17 B".
std::string byteText(std::uint64_t bytes);

// InputError "<what>: needs N bytes in host memory, M available" when bytes do not fit.
void checkHostMemory(std::uint64_t bytes, const std::string& what);

} // namespace clscope
