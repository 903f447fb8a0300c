// The bins of a run: each pixel's bin (azimuthal bin * N + radial bin), or -1 where the masks
// leave it out or it lies outside the ranges; and the bin centres. pyFAI's rules: ranges are
// converted to its internal units (radial / scale, azimuth by its deg2rad into [-pi, pi), the
// upper end moved up by 2 pi when not above the lower one); 1D keeps the pixels with
// lo <= chi <= hi; 2D bins chi like the radial axis (bin_axis.hpp).
#pragma once
#include "core/azint/pixel_map.hpp"

#include <cstdint>
#include <vector>

namespace clscope::azint {

struct Binning {
    std::size_t radialBins = 0, azimuthBins = 1; // N, M (1 for 1D)
    bool cake = false;
    std::vector<double> radialCentres;  // in the unit
    std::vector<double> azimuthCentres; // degrees (cake only)
    std::vector<std::int32_t> binOfPixel;
    std::size_t bins() const { return radialBins * azimuthBins; }
};

Binning computeBinning(const PixelMap& map, const Params& p);
// A result of `frames` frames over the binning in the parameters' unit: its axes set, every sum
// and count 0.
Result resultFor(const Binning& binning, const Params& p, std::size_t frames);

// pyFAI's deg2rad (utils/mathutil.py): ((deg / 180) mod 2, minus 2 if >= 1) * pi.
double pyfaiDegToRad(double degrees);
// The radial range in the internal unit: the asked one, or the unmasked pixels' min..max.
Range internalRadialRange(const PixelMap& map, const Params& p);
// The azimuth range in radians, hi > lo.
Range internalAzimuthRange(const Params& p);

} // namespace clscope::azint
