// What the facility layouts (--layout aps, nxxpcs; docs/INTERCHANGE.md) are written from: a
// correlate result with the labels, q values, geometry, frame time and frame sums of its run,
// and the views both layouts share (bins numbered 1..B as the roi map's values, the lags
// above 0 as delays, arrays lags × bins).
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/hdf5.hpp"
#include "core/mask/geometry.hpp"
#include "core/xpcs/frame_sums.hpp"
#include "core/xpcs/xpcs.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clscope::xpcs {

class LayoutRun {
  public:
    const Result* result = nullptr;
    LabelMask labels;                        // the run's (pixel mask applied)
    std::map<std::int32_t, double> qByLabel; // 1/Å
    std::optional<mask::Geometry> geometry;
    std::optional<double> frameTime; // s
    FrameSums sums;                  // the bins' frame sums and the sum image
    Provenance provenance;
    std::string identifier; // the run's name (the input file's stem)
    std::string startTime;  // ISO 8601, UTC

    // What a layout needs that the run lacks, for people ("q values of the bins (...)");
    // empty when it has everything. needQ: the layout needs the q of every bin. Needs the
    // labels, q table, geometry and frame time only (checked before the run too).
    std::vector<std::string> missing(bool needQ) const;
    // Lags of the result with a delay above 0 frames (the facility files have no lag 0).
    std::vector<std::size_t> delays() const;
    std::vector<std::int64_t> delayFrames() const; // of delays(), in frames
    // A B*L (bin, lag) array of the result's as (delays, B) float64.
    Array byDelays(const std::vector<double>& binMajor) const;
    // (H,W) int32: bin b's pixels hold b + 1, the rest 0.
    Array roiMap() const;
    std::vector<double> binQ() const;              // B, 1/Å (of the labels' bins)
    std::vector<std::int32_t> twotimeRois() const; // the two-time maps' bins, 1-based
    // The two-time map of a label as (side, side) float32 and its side.
    std::size_t twotimeSide() const;
    double energyKeV() const;
};

// g2 of a two-time map by averaging its diagonals over a window of frames [first, first + n):
// n values, NaN cells left out.
std::vector<double> diagonalAverage(const std::vector<float>& map, std::size_t side,
                                    std::size_t first, std::size_t n);

} // namespace clscope::xpcs
