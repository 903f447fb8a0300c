// Fast reading of xpcs frame stacks: a stack of whole-frame gzip or bitshuffle-LZ4 chunks is
// read through ChunkedFrames (core/input/chunked_frames.hpp: raw chunks decoded on a pool of
// threads straight into the frame array); any other layout, filter, type or a multi-file EIGER
// stack falls back to readFrames (one H5Dread).
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"

#include <string>

namespace clscope::xpcs {

// The same array as readFrames(file, path), byte for byte.
Array readFramesParallel(const H5Reader& file, const std::string& fileName, const std::string& path,
                         unsigned threads = 0);

} // namespace clscope::xpcs
