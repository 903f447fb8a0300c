// The intensity S_t of each q bin in each frame (the sum over its pixels), read in one pass over
// the frames (frames stored as entries summed from them, never densified), with the sum image
// beside it when asked. What the symmetric normalisation, the unnormalised G2 and the facility
// layouts' intensity datasets are computed from.
#pragma once
#include "core/data.hpp"
#include "core/xpcs/multitau.hpp"

#include <cstdint>
#include <vector>

namespace clscope::xpcs {

class FrameSums {
  public:
    std::vector<std::int32_t> labels; // B bin labels, ascending
    std::vector<std::int64_t> pixels; // B pixel counts
    std::size_t frames = 0;           // T
    std::vector<double> sums;         // B*T row-major (bin, frame): S_t (exact below 2^53)
    std::vector<double> image;        // H*W: Σ_t I_t(p) of every pixel (when asked, else empty)

    std::size_t binCount() const { return labels.size(); }
    double at(std::size_t bin, std::size_t frame) const { return sums[bin * frames + frame]; }
    // The bin's series at multi-tau level k: sums of 2^k consecutive frames, a trailing
    // partial block dropped (T_k = ⌊T/2^k⌋ values).
    std::vector<double> level(std::size_t bin, int k) const;
};

// Throws InputError when the frames are not of the mask's size.
FrameSums frameSums(const FrameBlocks& frames, const LabelMask& mask, bool withImage = false);

} // namespace clscope::xpcs
