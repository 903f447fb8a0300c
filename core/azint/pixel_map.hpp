// Everything azint needs per pixel once per geometry: the radial value (pyFAI's internal unit),
// chi (radians), the normalisation c (1, times solid angle and polarisation when asked) and
// which pixels the masks leave out.
#pragma once
#include "core/azint/azint.hpp"

#include <cstdint>
#include <vector>

namespace clscope::azint {

struct PixelMap {
    std::size_t height = 0, width = 0;
    std::vector<double> radial; // internal unit (q nm^-1, 2theta rad, r m)
    std::vector<double> chi;    // radians, (-pi, pi]
    std::vector<double> normalization;
    std::vector<std::uint8_t> masked; // 1: left out by the mask or the pixel mask
};

PixelMap computePixelMap(const Geometry& g, const Params& p, std::size_t height, std::size_t width,
                         const PixelMask& mask, const PixelMask& pixelMask);

} // namespace clscope::azint
