// spots: DIALS-style dispersion spot finding (DESIGN.md §5). Signal pixels by the DIALS
// `dispersion` or `dispersion_extended` threshold, then spots as connected signal pixels.
// Window sums are exact integers; the tests are evaluated in double in DIALS' own expression
// order, so the signal mask is bit-identical to DIALS for 16-bit data.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/progress.hpp"
#include "core/sentinels.hpp" // validLimit

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clscope::spots {

enum class Method { Dispersion, DispersionExtended };
std::string methodName(Method method);          // "dispersion", "dispersion_extended"
Method methodFromName(const std::string& name); // UsageError when unknown

// DIALS' parameter names and defaults (spotfinder.threshold.dispersion.*).
struct Params {
    Method method = Method::Dispersion;
    double gain = 1.0;            // 1: DIALS' formulas without a gain map
    int kernelX = 3, kernelY = 3; // half-widths: window (2kx+1) x (2ky+1)
    double sigmaBackground = 6.0; // sigma_background
    double sigmaStrong = 3.0;     // sigma_strong
    int minLocal = 2;             // min_local; <= 0: the full window
    double globalThreshold = 0.0; // global_threshold (>= 0)
    bool globalAuto = false;      // global_threshold = auto (DIALS' elbow estimate)
    int minSpotSize = 3, maxSpotSize = 1000;
    // filter.max_separation: largest distance (px) from the peak pixel's centre to the centroid.
    double maxSeparation = 2.0;
    bool threeD = false; // 6-connected across frames
    // Pre-2025 DIALS dispersion_extended (masked pixels not dispersive): only for comparing
    // with older DIALS builds such as Debian's; not a user parameter.
    bool legacyMaskedBackground = false;
    // Keep the dense signal mask in the result (the per-frame pixel lists are always kept); the
    // bench's stream case turns it off, as a streaming service would. Not a user parameter.
    bool signalMask = true;
    std::map<std::string, int> tuning; // -D NAME=VALUE kernel overrides
};

// Checks DIALS' asserts; UsageError naming the parameter.
void checkParams(const Params& p);
// min_local as DIALS uses it (the full window when <= 0).
int minCount(const Params& p);
// Erosion distance of dispersion_extended: min(kx, ky).
inline int erosionDistance(const Params& p) {
    return std::min(p.kernelX, p.kernelY);
}

// Frames (T,H,W) or (H,W) and the pixel mask (may be empty: every pixel good).
struct Input {
    Array frames;
    PixelMask mask;
};
// InputError when the dtype, rank or mask shape does not fit.
void checkInput(const Input& in);
// Values v with -sumLimit < v < sumLimit enter the window sums (DIALS' BIG = 2^24; the lower
// bound keeps int32's -2^31 and -inf from overflowing them).
constexpr std::int64_t sumLimit = std::int64_t(1) << 24;

struct Spot {
    int frame = 0;       // first frame of the spot
    int frameEnd = 0;    // one past its last frame
    double x = 0, y = 0; // centroid of pixel centres (index + 0.5), weighted by value
    double z = 0;        // frame centroid (frame + 0.5), weighted by value
    int npix = 0;
    double intensity = 0;               // sum of values
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0; // bbox, half-open
    std::int64_t firstPixel = 0; // flat index (frame, row, column) of its first pixel: the order
    int peakX = 0, peakY = 0, peakFrame = 0; // its brightest pixel (the first in scan order)
    // The centroid's mean-square error (x, y, z) as DIALS gives it (xyzobs.px.variance,
    // dials/algorithms/image/centroid/centroid_points.h mean_sq_error): the value-weighted
    // unbiased variance of the pixel centres / Σv + 1/12; 1/12 in z for a spot of one frame.
    std::array<double, 3> centroidVariance{};
};

// The signal pixels of each frame as in-plane indices, ascending (what the GPU variants' compacted
// lists become once sorted).
using FramePixels = std::vector<std::vector<std::uint32_t>>;

struct Result {
    Shape shape;                      // of the frames
    std::vector<std::uint8_t> signal; // 1 = signal, same size as the frames (empty: !signalMask)
    FramePixels pixels;               // the same signal pixels, per frame
    std::vector<Spot> spots;
    std::vector<std::int64_t> strongPerFrame;
    double thresholdUsed = 0; // the global threshold (after auto)
};

// DIALS' debug images (the threshold steps dials.image_viewer shows), one value per pixel of
// every frame. dispersion: mean, variance (sample) and index of dispersion of the window;
// dispersion_extended: mean is the background mean of the widened window. sigmaB: the
// dispersion test (extended: dispersive pixels before erosion), sigmaS: the strong test,
// global: value > global_threshold, final: the signal mask. All 0 on invalid pixels.
struct DebugImages {
    std::vector<double> mean, variance, dispersion;
    std::vector<std::uint8_t> sigmaB, sigmaS, global, final;
};

// The signal mask on the host (the `cpu` variant), multithreaded over rows; with debug, the
// debug images too.
std::vector<std::uint8_t> thresholdCpu(const Input& in, const Params& p,
                                       const Progress& progress = {}, DebugImages* debug = nullptr);
// Spots of a signal mask: 4-connected per frame, or 6-connected across frames (threeD),
// streaming frame by frame; filtered by size and by the peak–centroid distance (DIALS'
// PeakCentroidDistanceFilter: |peak pixel centre − centroid| in (x, y, frame) <= max_separation,
// the peak being the first brightest pixel in scan order, values compared as float like
// DIALS' shoeboxes); ordered by first frame, then first pixel.
std::vector<Spot> findSpots(const Array& frames, const std::vector<std::uint8_t>& signal,
                            const Params& p);
// Grouping from the lists: the same spots without touching the rest of the plane.
FramePixels signalPixels(const std::vector<std::uint8_t>& signal, std::size_t plane);
std::vector<Spot> findSpots(const Array& frames, const FramePixels& pixels, const Params& p);
// 2-D spots of frames [t0, t1) only (their lists sorted here), in order: what findSpots gives
// for those frames, so that a stream can group each chunk as soon as its lists are in.
std::vector<Spot> findSpotsInFrames(const Array& frames, FramePixels& pixels, const Params& p,
                                    std::size_t t0, std::size_t t1);
// The same from the signal pixels' values alone (a device's frames never come to the host):
// frames of `plane` pixels, rows of `width`; pixels[t] sorted, values[t - t0][n] the value
// of pixels[t][n] (t in [t0, t1), 2-D only).
std::vector<Spot> findSpotsSparse(std::size_t width, std::size_t plane, const FramePixels& pixels,
                                  const std::vector<std::vector<double>>& values, const Params& p,
                                  std::size_t t0, std::size_t t1);
// Signal mask + spots + counts: the whole `cpu` run.
Result runCpu(const Input& in, const Params& p, const Progress& progress = {});
// The dense signal mask of a result (built from the lists when the run kept none).
std::vector<std::uint8_t> denseSignal(const Result& r);
// Distance from the spot's peak pixel centre to its centroid, in pixels (x, y and frame).
double peakSeparation(const Spot& s);
// Spots and counts of a signal mask made elsewhere (GPU variants).
Result finishResult(const Input& in, std::vector<std::uint8_t> signal, const Params& p);
// The same when the signal pixels of every frame are known as lists (sorted here); signal may
// be empty (Params::signalMask off); `grouped`: the spots when already found (a stream's).
Result finishResult(const Input& in, std::vector<std::uint8_t> signal, FramePixels pixels,
                    const Params& p, std::optional<std::vector<Spot>> grouped = {});

// The parameters as a DIALS find_spots.phil snippet (kernel_size written as DIALS orders it:
// rows first, "KY KX").
std::string philSnippet(const Params& p);

// DIALS' elbow estimate of global_threshold = auto over the frames' valid pixels.
double autoGlobalThreshold(const Input& in);

} // namespace clscope::spots
