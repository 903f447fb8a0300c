// Detector sentinels: EIGER-style detectors mark bad or saturated pixels with the largest
// values of an unsigned type (2^bits − 1 and 2^bits − 2). Every algorithm that reads frames
// (spots, azint) leaves them out by the same rule (DESIGN.md §5 spots).
#pragma once
#include "core/array.hpp"

#include <cstdint>

namespace clscope {

// Largest value + 1 that is a valid pixel (2^bits − 2 for unsigned data), or 0 for none.
inline std::uint64_t validLimit(DType dtype) {
    switch (dtype) {
    case DType::UInt8:
        return (1u << 8) - 2;
    case DType::UInt16:
        return (1u << 16) - 2;
    case DType::UInt32:
        return (std::uint64_t(1) << 32) - 2;
    default:
        return 0;
    }
}

} // namespace clscope
