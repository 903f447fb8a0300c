// Mean intensity of each q bin in each frame: the stability plot (intensity against time per
// bin) and I(q) (its mean over the frames) that go with a g2 result. Computed from the frames
// and labels a run used; pixels with label 0 are not counted.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/xpcs/multitau.hpp"

#include <cstdint>
#include <vector>

namespace clscope::xpcs {

struct BinIntensity {
    std::vector<std::int32_t> labels; // B bin labels, ascending
    std::vector<std::int64_t> pixels; // B pixel counts
    std::size_t frames = 0;           // T
    std::vector<double> mean;         // B*T row-major (bin, frame): mean counts per pixel
    std::size_t binCount() const { return labels.size(); }
    double at(std::size_t bin, std::size_t frame) const { return mean[bin * frames + frame]; }
    // I(q): the mean over the frames of each bin (B), and the standard deviation of the
    // per-frame means about it (B; 0 for one frame).
    std::vector<double> timeMean() const;
    std::vector<double> timeSpread() const;
};

// Throws InputError when the frames are not (T,H,W) of the mask's size.
BinIntensity binIntensity(const FrameBlocks& frames, const LabelMask& mask);
BinIntensity binIntensity(const Array& frames, const LabelMask& mask);

} // namespace clscope::xpcs
