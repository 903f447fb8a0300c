// A synthetic powder pattern (clscope-cli generate powder, azint's bench): Debye-Scherrer rings
// at fixed q over a flat background, each frame Poisson counts of that mean, uint16, on a
// detector whose PONI lies near its centre.
#pragma once
#include "core/array.hpp"
#include "core/azint/geometry.hpp"

#include <cstdint>

namespace clscope::azint {

struct PowderParams {
    std::size_t frames = 4, height = 512, width = 512;
    std::size_t rings = 8;      // rings at q = (k + 1) x the spacing below, k < rings
    double background = 10;     // mean counts per pixel
    double ringIntensity = 200; // peak mean counts of a ring above the background
    std::uint64_t seed = 0;
};

// The geometry of the powder frames: pixels of 75 um, the PONI at the centre, 0.1 m, 1 Å.
Geometry powderGeometry(std::size_t height, std::size_t width);
// (T,H,W) uint16 frames. The rings' q spacing spreads them over the detector's q range.
Array powderFrames(const PowderParams& p, const Geometry& g);

} // namespace clscope::azint
