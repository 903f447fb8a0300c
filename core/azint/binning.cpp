#include "core/azint/binning.hpp"

#include "core/azint/bin_axis.hpp"
#include "core/errors.hpp"
#include "core/range_pool.hpp"

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

namespace {

// Pieces of a loop over n pixels: 64, fewer for small images.
std::size_t pieces(std::size_t n) {
    return std::clamp<std::size_t>(n / 4096, 1, 64);
}

} // namespace

Range internalRadialRange(const PixelMap& map, const Params& p) {
    if (p.radialRange) {
        const double scale = unitScale(p.unit);
        return {p.radialRange->first / scale, p.radialRange->second / scale};
    }
    // Each piece's min and max, then the pieces' in order: what one pass in order finds.
    const std::size_t n = map.radial.size(), parts = pieces(n);
    std::vector<Range> part(parts, Range{std::numeric_limits<double>::infinity(),
                                         -std::numeric_limits<double>::infinity()});
    parallelRanges(parts, parts, [&](std::size_t q0, std::size_t q1) {
        for (std::size_t q = q0; q < q1; ++q) {
            Range& r = part[q];
            for (std::size_t k = n * q / parts; k < n * (q + 1) / parts; ++k)
                if (!map.masked[k])
                    r.first = std::min(r.first, map.radial[k]),
                    r.second = std::max(r.second, map.radial[k]);
        }
    });
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Range& r : part)
        lo = std::min(lo, r.first), hi = std::max(hi, r.second);
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
    const std::size_t n = map.radial.size();
    parallelRanges(n, pieces(n), [&](std::size_t k0, std::size_t k1) {
        for (std::size_t k = k0; k < k1; ++k) {
            const bool inside = map.chi[k] >= chi.first && map.chi[k] <= chi.second;
            out.binOfPixel[k] = map.masked[k] || !inside ? -1 : radial.binOf(map.radial[k]);
        }
    });
}

void bin2d(const PixelMap& map, const Params& p, Binning& out) {
    const Range r = internalRadialRange(map, p), chi = internalAzimuthRange(p);
    const BinAxis radial(r.first, r.second, p.bins, Rounding::Floor);
    const BinAxis azimuth(chi.first, chi.second, p.azimuthBins, Rounding::Floor);
    out.radialCentres = radial.centres(unitScale(p.unit));
    out.azimuthCentres = azimuth.centres(180.0 / std::numbers::pi);
    const std::size_t n = map.radial.size();
    parallelRanges(n, pieces(n), [&](std::size_t k0, std::size_t k1) {
        for (std::size_t k = k0; k < k1; ++k) {
            const std::int32_t rb = map.masked[k] ? -1 : radial.binOf(map.radial[k]);
            const std::int32_t ab = rb < 0 ? -1 : azimuth.binOf(map.chi[k]);
            out.binOfPixel[k] = ab < 0 ? -1 : ab * p.bins + rb;
        }
    });
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
