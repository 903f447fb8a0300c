#include "core/azint/binning.hpp"

#include "core/azint/bin_axis.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace clscope::azint {

double pyfaiDegToRad(double degrees) {
    double turns = std::fmod(degrees / 180.0, 2.0);
    if (turns < 0) turns += 2.0; // Python's modulo takes the divisor's sign
    if (turns >= 1.0) turns -= 2.0;
    return turns * std::numbers::pi;
}

Range internalRadialRange(const PixelMap& map, const Params& p) {
    if (p.radialRange) {
        const double scale = unitScale(p.unit);
        return {p.radialRange->first / scale, p.radialRange->second / scale};
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t k = 0; k < map.radial.size(); ++k)
        if (!map.masked[k]) lo = std::min(lo, map.radial[k]), hi = std::max(hi, map.radial[k]);
    if (!(lo <= hi)) throw InputError("azint: every pixel is masked");
    return {lo, hi};
}

Range internalAzimuthRange(const Params& p) {
    const Range deg = p.azimuthRange.value_or(Range{-180.0, 180.0});
    Range rad{pyfaiDegToRad(deg.first), pyfaiDegToRad(deg.second)};
    if (rad.second <= rad.first) rad.second += 2.0 * std::numbers::pi;
    return rad;
}

namespace {

// 1D: the radial bin of pixels inside the azimuth range.
void bin1d(const PixelMap& map, const Params& p, Binning& out) {
    const Range r = internalRadialRange(map, p), chi = internalAzimuthRange(p);
    const BinAxis radial(r.first, r.second, p.bins, Rounding::TowardZero);
    out.radialCentres = radial.centres(unitScale(p.unit));
    for (std::size_t k = 0; k < map.radial.size(); ++k) {
        const bool inside = map.chi[k] >= chi.first && map.chi[k] <= chi.second;
        out.binOfPixel[k] = map.masked[k] || !inside ? -1 : radial.binOf(map.radial[k]);
    }
}

void bin2d(const PixelMap& map, const Params& p, Binning& out) {
    const Range r = internalRadialRange(map, p), chi = internalAzimuthRange(p);
    const BinAxis radial(r.first, r.second, p.bins, Rounding::Floor);
    const BinAxis azimuth(chi.first, chi.second, p.azimuthBins, Rounding::Floor);
    out.radialCentres = radial.centres(unitScale(p.unit));
    out.azimuthCentres = azimuth.centres(180.0 / std::numbers::pi);
    for (std::size_t k = 0; k < map.radial.size(); ++k) {
        const std::int32_t rb = map.masked[k] ? -1 : radial.binOf(map.radial[k]);
        const std::int32_t ab = rb < 0 ? -1 : azimuth.binOf(map.chi[k]);
        out.binOfPixel[k] = ab < 0 ? -1 : ab * p.bins + rb;
    }
}

} // namespace

Binning computeBinning(const PixelMap& map, const Params& p) {
    Binning out;
    out.radialBins = static_cast<std::size_t>(p.bins);
    out.cake = p.azimuthBins > 0;
    out.azimuthBins = out.cake ? static_cast<std::size_t>(p.azimuthBins) : 1;
    out.binOfPixel.assign(map.radial.size(), -1);
    if (out.cake)
        bin2d(map, p, out);
    else
        bin1d(map, p, out);
    return out;
}

} // namespace clscope::azint
