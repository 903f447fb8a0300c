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

} // namespace clscope::xpcs
