// Data of the mask editor's tests (tst_ui_mask: the presenter; tst_ui_mask_window: the editor
// inside the main window): a 20x24 image size, a ramp image, a small geometry.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/mask/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace clscope::test {

constexpr std::size_t H = 20, W = 24;

inline std::size_t maskedCount(const PixelMask& m) {
    return static_cast<std::size_t>(
        std::count_if(m.bad.begin(), m.bad.end(), [](auto v) { return v != 0; }));
}

// A (H,W) float image where pixel i holds i, with one NaN at pixel 5.
inline Array rampImage() {
    std::vector<double> values(H * W);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<double>(i);
    values[5] = std::nan("");
    return makeArray<double>({H, W}, values);
}

inline mask::Geometry smallGeometry() {
    mask::Geometry g;
    g.beamCenterX = 12.0;
    g.beamCenterY = 10.0;
    g.distance = 0.5;
    g.pixelSizeX = g.pixelSizeY = 100e-6;
    g.wavelength = 1e-10;
    return g;
}

} // namespace clscope::test
