// The per-bin sums over the frame pairs of each lag of a result, from the bins' frame sums:
// what turns the frame-by-frame g2 into boost_corr's symmetric one and gives the unnormalised
// G2 (DESIGN.md §5). Dense: lag m at level 0; multi-tau: lag m = lag_frames / 2^k at level k.
#pragma once
#include "core/xpcs/frame_sums.hpp"
#include "core/xpcs/xpcs.hpp"

#include <vector>

namespace clscope::xpcs {

// Lag j of a result: its level k and its lag m in frames of that level.
struct LagAt {
    int level = 0;
    std::size_t lag = 0;
};
LagAt lagAt(const Result& result, std::size_t j);

// Over the T_k − m pairs (t, t − m) of one bin at one lag.
struct LagSums {
    double pairs = 0;    // T_k − m
    double later = 0;    // Σ_t S_t
    double earlier = 0;  // Σ_t S_{t−m}
    double products = 0; // Σ_t S_t S_{t−m}
};

// B*L row-major (bin, lag) for the result's bins (the same labels as `sums`) and lags.
std::vector<LagSums> lagSums(const FrameSums& sums, const Result& result);

} // namespace clscope::xpcs
