// Multi-tau on sparse frames (DESIGN.md §5 "Sparse correlation"): the frames' entries, never
// densified, give the rows' frame sums and lag products that the dense multi-tau gives, so the
// same MultitauStats fold makes the same g2 bit for bit. docs/SPARSE.md "Sparse correlators".
#pragma once
#include "core/xpcs/multitau.hpp"

namespace clscope::xpcs {

// The CPU design (variant `sparse-cpu`): each level keeps its last C rows as entries sorted by
// position; a lag product is a merge of two rows, a binned row the merge of a pair.
Result correlateMultitauSparseCpu(const FrameBlocks& frames, const LabelMask& mask,
                                  const Params& params, const Progress& progress = {});

// The occupancy (stored entries / (frames · H · W)) below which the OpenCL variant `sparse`
// beats the dense `multitau` from host memory, measured on 65,536 photon frames of 512x1024
// (docs/PERFORMANCE.md "Sparse multi-tau"): on an H200 with the pair levels, the fold on the
// device and in-memory entries staged where they lie (2026-11-29, f1535c1) sparse 133,900
// frames/s at 2 % and 82,450 at 3 %, dense 100,100-100,400 in the same call: the crossover lies
// at about 2.65 % (interpolated between the two), the rule a little below it. A multi-tau run on
// a file that names no variant takes `sparse` below it on a sparse stack
// (xpcs::Algorithm::choiceFor).
constexpr double sparseCrossover = 0.025;
// The same for a live stream's run, where the labelled pixels of its first batch are non-zero
// below it (gpu/xpcs/live_choice.cpp): live, the frames are on the device either way and both
// paths sit near the receive and decode bound: 4M frames, sparse against the dense rings, 1.04 x
// at 1 % (H100, 2026-11-27), 0.88 x at 2 % and 0.77 x at 3 % (H200, 2026-11-29, f1535c1).
constexpr double liveSparseCrossover = 0.01;

// The most counts a binned frame (or one bin of it) may hold for the device variants' 64-bit lag
// products: every product of two such sums, and so every sum of products over its pixels (Σ_p
// a_p b_p <= Σ a Σ b), fits a signed 64-bit integer (3037000499² < 2^63). `sparse` checks its
// frames' totals against it, `sparse-pairs`' multi-tau its bins' sums.
constexpr std::uint64_t largestProductRoot = 3037000499ULL;

// An occupancy (a fraction) as the rules' messages say it: "0.08 %".
std::string occupancyText(double fraction);

// UsageError unless the frames are unsigned integer counts (what the sparse variants take).
void checkSparseInput(DType dtype, const std::string& variant);

} // namespace clscope::xpcs
