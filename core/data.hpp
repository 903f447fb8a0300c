// Plain data types of the pixel masks every frame input may carry (Qt-free).
#pragma once
#include "core/array.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clscope {

// q-bin labels (H,W): 0 = excluded, L > 0 = bin L.
struct LabelMask {
    std::size_t height = 0, width = 0;
    std::vector<std::int32_t> labels;
    // Distinct labels > 0, ascending.
    std::vector<std::int32_t> bins() const;
};

// Pixel mask (H,W): 0 = good, 1 = bad (NXmx polarity).
struct PixelMask {
    std::size_t height = 0, width = 0;
    std::vector<std::uint8_t> bad;
};

} // namespace clscope
