// Dense lags (every lag 0..T-1, the default xpcs mode) on sparse frames (DESIGN.md §5 "Sparse
// correlation"): the frames' entries, never densified, give each bin's exact frame sums and
// Gram matrix N(t1, t2) = Σ_p I_t1(p) I_t2(p), which the cpu reference's statistics
// (finishBinExact) turn into the same g2, g2_err and two-time maps, bit for bit for integer
// counts. docs/SPARSE.md "Sparse correlators".
#pragma once
#include "core/xpcs/multitau.hpp"

namespace clscope::xpcs {

// The CPU design (variant `sparse-cpu` without --multitau): every frame pair meets, so the
// series' labelled entries are held (16 bytes an entry, the dense cpu holds the whole stack);
// per bin, a Gram entry is the merge of two frames' sorted rows (forCommonPositions), rows t1
// spread over the threads, the bin's T x T Gram matrix in 128-bit integers (16 T^2 bytes).
// Work O(T^2 x entries) as the dense cpu's O(T^2 x pixels).
Result correlateLagsSparseCpu(const FrameBlocks& frames, const LabelMask& mask,
                              const Params& params, const Progress& progress = {});

} // namespace clscope::xpcs
