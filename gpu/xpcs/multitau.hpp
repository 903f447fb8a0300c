// xpcs multi-tau (DESIGN.md §5) through the algorithm: its parameters, the streamed input and
// the OpenCL variant `multitau` (gpu/xpcs/multitau_stream.cpp); the variants that run it are
// declared with the others (variants.cpp, Modes).
#pragma once
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/multitau_merge.hpp"

namespace clscope::xpcs {

// --multitau, --channels C.
std::vector<ParamSpec> multitauParamSpecs();
// Whether the OpenCL variant's 64-bit sums hold every term (empty) or why not.
std::string multitauOverflow(DType dtype, std::uint64_t largest, std::int64_t mostPixels,
                             std::size_t frames, int channels);
// The input of a multi-tau run: labels and the rest read, frames left in the file (or the
// stream) and read block by block, in order.
std::shared_ptr<XpcsInput> readStreamed(const InputSources& sources);
std::string describeBlocks(const FrameBlocks& blocks, std::size_t bins);

// The bench case `multitau` (multitau_bench.cpp).
BenchCase multitauBenchCase(const ParamSet& defaults);
// The bench cases `sparse`, `sparse1`, `sparse10`: photons at `occupancy` (sparse_bench.cpp).
BenchCase sparseBenchCase(const ParamSet& defaults, double occupancy);
// bench xpcs --size sparselags: dense lags of 1,000 photon frames at 0.1 %, entries and dense.
BenchCase sparseLagsBenchCase(const ParamSet& defaults, double occupancy);

// The OpenCL variant's frames per block for `pixels` labelled pixels in frames of frameBytes
// (the level-0 ring about 2 MiB; on GPUs at least 512 frames where they take at most 256 MiB,
// else 256), or MT_FRAMES (multitau_stream.cpp).
std::size_t multitauBlock(std::size_t pixels, std::size_t frameBytes, const DeviceInfo& device,
                          const std::map<std::string, int>& tuning);
// checkMultitau and the OpenCL variant's own limits (channels, integer data): UsageError.
void checkMultitauDevice(DType dtype, std::size_t frames, const LabelMask& mask,
                         const Params& params);
// The OpenCL variant (multitau_stream.cpp), its program built as `programs` asks; `band`: a
// part of a split by pixels (only its rows go up; the result is part 0's, the others' empty).
Result correlateMultitauStream(const DeviceInfo& device, const FrameBlocks& frames,
                               const LabelMask& mask, const Params& params,
                               const Progress& progress, const ProgramOverrides& programs,
                               const MultitauBand* band = nullptr);

// The OpenCL variant `sparse` (multitau_sparse.cpp, sparse_rings.hpp): the frames' entries
// correlated on the device, never densified.
Result correlateMultitauSparse(const DeviceInfo& device, const FrameBlocks& frames,
                               const LabelMask& mask, const Params& params,
                               const Progress& progress, const ProgramOverrides& programs);

// The OpenCL variant `sparse-pairs` with --multitau (multitau_pairs.cpp): each pixel's pairs of
// entries added into the rows' lag products they meet, the whole series held on the device.
Result correlateMultitauPairs(const DeviceInfo& device, const FrameBlocks& frames,
                              const LabelMask& mask, const Params& params, const Progress& progress,
                              const ProgramOverrides& programs);

// Multi-tau split by pixels (split_pixels.cpp): bands of whole frame rows, one a part, that
// share one MultitauMerge; one part (the input whole) where the frames are read in order (a
// file, a stream) or the labelled pixels lie in one band.
std::vector<Algorithm::Part> splitByPixels(const XpcsInput& in, const ParamSet& values,
                                           int channels, std::size_t parts);
// What that split takes off one device: the frames' bytes (none for frames read in order).
SplitWork splitByPixelsWork(const XpcsInput& in);

} // namespace clscope::xpcs
