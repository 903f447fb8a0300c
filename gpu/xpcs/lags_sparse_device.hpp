// Dense lags on sparse frames on an OpenCL device, variant `sparse-pairs` (DESIGN.md §5
// "Sparse correlation"; docs/SPARSE.md): the frames' entries, never densified, turned
// pixel-major on the host (each labelled position's frames and counts, ascending), uploaded
// once; xpcs_sparse_pairs.cl adds every pair of a position's entries into its bin's Gram
// matrix and every entry into the frame sums, then the dense variants' xpcs_lag_sums and
// two-time maps finish as they do: g2, g2_err and the maps bit for bit the dense ones'.
#pragma once
#include "core/xpcs/multitau.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"

namespace clscope::xpcs {

// The series' entries must fit the device (16 bytes an entry and T² × bins × 8 bytes of Gram
// matrices, as the dense variants'); a series whose 64-bit sums could overflow is a usage error
// naming sparse-cpu, which sums in 128 bits.
Result correlateLagsSparseDevice(const DeviceInfo& device, const FrameBlocks& frames,
                                 const LabelMask& mask, const Params& params,
                                 const Progress& progress, const ProgramOverrides& programs);

// Whether every bin's T x T Gram matrix fits the device at once (what sparse-pairs holds; the
// run refuses otherwise, before its entries are read).
bool sparsePairsGramFits(const DeviceInfo& device, const Bins& bins, std::size_t frames);

// The occupancy (stored entries / (frames · H · W)) below which `sparse-pairs` beats the dense
// variants on dense lags end to end, measured on 1,000 photon frames of 512x1024, 57 bins, on
// an H100 (docs/SPARSE-LAGS.md; 2026-11-28): walls 8.9 ms against mma's 15.2 and gemm's 25.6 at
// 0.1 %, 24.9 against 16.0 and 25.1 at 0.3 %. A dense-lag run on a sparse stack that names no
// variant takes it below this where its Gram matrices fit the device, its 64-bit sums cannot
// overflow and its entries fit the memory budget (xpcs::Algorithm::choiceFor).
constexpr double denseLagsCrossover = 0.002;

} // namespace clscope::xpcs
