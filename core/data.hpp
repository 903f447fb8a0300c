// Plain data types of the four algorithms' inputs (Qt-free).
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

// Pixel digis of a silicon tracker, structure of arrays.
struct Digis {
    static constexpr std::uint16_t invalidModule = 65534;
    static constexpr std::uint16_t moduleSizeX = 160;
    static constexpr std::uint16_t moduleSizeY = 416;
    std::vector<std::uint16_t> module, x, y, adc;
    std::size_t size() const { return module.size(); }
};

// Particles (sources, targets, weights): positions are (N,3) row-major.
struct Particles {
    std::vector<double> sources; // N*3
    std::vector<double> targets; // M*3
    std::vector<double> weights; // N, or N*2 as [re, im] when complex
    bool complexWeights = false;
    std::size_t sourceCount() const { return sources.size() / 3; }
    std::size_t targetCount() const { return targets.size() / 3; }
};

} // namespace clscope
