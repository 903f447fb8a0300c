// Live tuning of the spot finder on one frame (Qt-free): the frame's signal mask, spots and
// DIALS' debug images with the parameters on screen. The window sums (count, Σv, Σv²) of
// `dispersion` on integer data are kept per (frame, kernel size), so a change of gain, σ_b,
// σ_s, min_local or global_threshold only re-evaluates DIALS' tests; anything else (a float
// frame, dispersion_extended) goes through the core reference, spots::thresholdCpu.
#pragma once
#include "core/spots/spots.hpp"

#include <memory>
#include <optional>

namespace clscope::ui {

// One frame to threshold: (1,H,W) or (H,W), its index in the stack and the pixel mask.
struct SpotsFrameInput {
    std::size_t index = 0;
    Array frame;
    PixelMask mask;
};

// What thresholding one frame gives.
struct SpotsFrameResult {
    std::size_t frame = 0; // index in the stack
    std::size_t height = 0, width = 0;
    std::vector<std::uint8_t> signal; // (H,W), 1 = signal
    std::vector<spots::Spot> spots;   // with frame = the index in the stack
    std::int64_t strong = 0;          // signal pixels
    double threshold = 0;             // global threshold used (after auto, over this frame)
    std::optional<spots::DebugImages> debug;
    bool cachedSums = false; // the window sums were taken from the cache
};

class SpotsFrameCache {
  public:
    // The frame thresholded with p (debug: with the debug images). Call from one thread at a
    // time (the job runner's worker).
    SpotsFrameResult threshold(const std::shared_ptr<const SpotsFrameInput>& input,
                               const spots::Params& p, bool debug);
    // How many times window sums were computed (tests: a threshold change computes none).
    int sumsComputed() const { return sumsComputed_; }

  private:
    struct Sums {
        std::vector<double> m, x, y; // exact integer window sums as DIALS' tests take them
    };
    const Sums& sumsFor(const std::shared_ptr<const SpotsFrameInput>& input, int kx, int ky);
    std::shared_ptr<const SpotsFrameInput> input_;
    int kx_ = -1, ky_ = -1;
    Sums sums_;
    int sumsComputed_ = 0;
};

// Whether the cached path applies (integer data, dispersion); else the core reference runs.
bool cachedThresholdApplies(const Array& frame, const spots::Params& p);

} // namespace clscope::ui
