// azint: azimuthal integration of each frame, pyFAI's integrate1d / integrate2d without pixel
// splitting (DESIGN.md §5 "azint"): every valid pixel falls in the bin of its centre, and each
// bin holds signal = sum v, normalization = sum c (c = 1, times the solid angle and the
// polarisation factor when asked), count; intensity = signal / normalization (NaN where it is
// 0), error = sqrt(signal) / normalization (Poisson). Computed in float64.
#pragma once
#include "core/array.hpp"
#include "core/azint/geometry.hpp"
#include "core/azint/pixel_geometry.hpp"
#include "core/azint/radial_unit.hpp"
#include "core/data.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace clscope::azint {

using Range = std::pair<double, double>;

struct Params {
    Unit unit = Unit::QNm;
    int bins = 1000;                   // radial bins N
    int azimuthBins = 0;               // M; 0: 1D (one azimuthal bin over the azimuth range)
    std::optional<Range> radialRange;  // in `unit`; default: the unmasked pixels' min..max
    std::optional<Range> azimuthRange; // degrees; default -180..180
    bool solidAngle = false;
    std::optional<double> polarization; // pyFAI's polarization_factor
    // pyFAI's float32 pixel positions: for the comparison with pyFAI only (pixel_geometry.hpp).
    Positions positions = Positions::Float64;
};

// UsageError naming the parameter (bins < 1, a range that is empty or not finite).
void checkParams(const Params& p);

// Frames (T,H,W) or (H,W); the mask and the pixel mask may be empty (every pixel good). A pixel
// is left out where either is non-zero, and in a frame where its value is not finite or, for
// unsigned data, v >= 2^bits - 2 (the detector's sentinels, as for spots).
struct Input {
    Array frames;
    PixelMask mask, pixelMask;
};
// InputError when the rank, the dtype or a mask's shape does not fit.
void checkInput(const Input& in);

struct Result {
    std::size_t frames = 0, azimuthBins = 1, bins = 0; // F, M (1 for 1D), N
    bool cake = false;                                 // 2D
    Unit unit = Unit::QNm;                             // of the radial centres
    std::vector<double> radial;                        // N bin centres, in the unit
    std::vector<double> azimuthal;                     // M bin centres, degrees (cake only)
    // (F, M, N) each, row-major.
    std::vector<double> intensity, error, sumSignal, sumNormalization;
    std::vector<std::int64_t> count;
};

// The intensities and errors from the sums (NaN where the normalization is 0).
void finishResult(Result& r);

// The `cpu` reference: a histogram over the pixels of every frame.
Result runCpu(const Input& in, const Geometry& g, const Params& p);
// The same through the CSR matrix (csr_matrix.hpp): equal to runCpu bit for bit.
Result runCsr(const Input& in, const Geometry& g, const Params& p);

} // namespace clscope::azint
