// boost_corr's g2_err of the symmetric normalisation (DESIGN.md §5), from per-pixel sums: per
// bin and lag m at level k, the unbiased standard deviation over the bin's pixels p of
// G2_p / (IP_p IF_p) (G2_p, IP_p, IF_p the means over the T_k − m pairs of I_t I_{t−m}, I_t,
// I_{t−m}; pixels with IP_p IF_p = 0 left out), divided by the square root of the pixels used.
// The labelled pixels' series are held in memory (labelled pixels × T doubles; frames stored as
// entries read as entries); the cpu variant's path (and sparse-cpu's dense lags), the pixels of
// each bin spread over the cores.
#pragma once
#include "core/data.hpp"
#include "core/xpcs/multitau.hpp"

#include <vector>

namespace clscope::xpcs {

// B*L row-major for the result's bins and lags; NaN where fewer than 2 pixels count.
std::vector<double> symmetricPixelErrors(const FrameBlocks& frames, const LabelMask& labels,
                                         const Result& result);

} // namespace clscope::xpcs
