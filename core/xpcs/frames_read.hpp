// Fast reading of xpcs frame stacks: a stack of whole-frame gzip or bitshuffle-LZ4 chunks is
// read through ChunkedFrames (core/input/chunked_frames.hpp: raw chunks decoded on a pool of
// threads straight into the frame array); any other layout, filter, type or a multi-file EIGER
// stack falls back to readFrames (one H5Dread), as do sparse frames and event lists (densified
// there, core/sparse).
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"

#include <optional>
#include <string>

namespace clscope::xpcs {

// The same array as readFrames(file, path, frameTime), byte for byte (frameTime: the frames an
// event list is binned into, seconds).
Array readFramesParallel(const H5Reader& file, const std::string& fileName, const std::string& path,
                         unsigned threads = 0, std::optional<double> frameTime = std::nullopt);

} // namespace clscope::xpcs
