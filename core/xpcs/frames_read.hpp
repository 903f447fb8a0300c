// Fast reading of xpcs frame stacks: gzip chunks (deflate, after a byte shuffle or not) and
// bitshuffle-LZ4 chunks (EIGER / NXmx files: the bslz4 of DECTRIS' streams, decoded without
// HDF5's plugin) of whole frames are read raw with H5Dread_chunk and decoded on a pool of threads
// straight into the frame array; any other layout, filter, type or a multi-file EIGER stack falls
// back to readFrames (one H5Dread).
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"

#include <string>

namespace clscope::xpcs {

// The same array as readFrames(file, path), byte for byte.
Array readFramesParallel(const H5Reader& file, const std::string& fileName, const std::string& path,
                         unsigned threads = 0);

} // namespace clscope::xpcs
