// The blocks of one compressed frame, as DECTRIS' compression tag frames them: "bslz4" (the
// bitshuffle HDF5 filter: uint64 BE total bytes, uint32 BE block bytes, then per block a
// uint32 BE size and an LZ4 block of bitshuffled elements; the last partial block rounded down
// to 8 elements, the < 8 elements after it stored as they are) and "lz4" (the HDF5 LZ4
// filter: the same header, then LZ4 blocks of the block size, a block that did not shrink
// stored as it is). Planned on the host, decoded by the CPU (compression.cpp) or a device
// (gpu/decode/): the one reading of the framing both decoders share.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace clscope::stream {

enum class BlockKind : std::uint32_t {
    Bitshuffled = 0, // an LZ4 block of bitshuffled elements
    Lz4 = 1,         // an LZ4 block of bytes
    Stored = 2,      // bytes as they are
};

struct Block {
    std::uint64_t src = 0;      // offset of its compressed bytes in the frame's bytes
    std::uint64_t dst = 0;      // offset of its bytes in the decoded frame
    std::uint32_t srcBytes = 0; // compressed bytes
    std::uint32_t dstBytes = 0; // decoded bytes
    BlockKind kind = BlockKind::Stored;
};

struct FramePlan {
    std::uint32_t elemSize = 1;   // bytes per element (bslz4; 1 for lz4)
    std::uint32_t blockBytes = 0; // the header's block size in bytes
    std::vector<Block> blocks;    // in order, covering the decoded frame
};

// The blocks of `src`, decoded to `dstBytes` bytes. InputError (one line, starting with the
// algorithm: "bslz4 data truncated: ...") for an unknown algorithm, a total that differs from
// dstBytes, an invalid block or element size, a block beyond the bytes or bytes after the last.
FramePlan planBlocks(const std::string& algorithm, std::uint64_t elemSize,
                     std::span<const std::byte> src, std::size_t dstBytes);

// The header of bslz4 data (its first 12 bytes) checked as planBlocks checks it: the total must
// be dstBytes, the block size whole groups of 8 elements of elemSize. InputError as planBlocks'.
// The readers that leave a chunk to libhdf5's plugin check it first (core/hdf5_checks.cpp): the
// plugin takes another total for the chunk's and truncates or pads the frames (issue 52).
void checkBslz4Header(std::uint64_t elemSize, std::span<const std::byte> src, std::size_t dstBytes);

} // namespace clscope::stream
