// Decompression of the byte strings of DECTRIS' compression tag (CBOR tag 56500):
// "bslz4" — bitshuffle + LZ4 framed as the bitshuffle HDF5 filter frames it — and "lz4" —
// LZ4 blocks framed as the HDF5 LZ4 filter frames them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace clscope::stream {

// Decompress `src` into exactly `dst.size()` bytes. InputError (one line: what is wrong in
// the compressed data, without the message or field, which the caller adds) for an unknown
// algorithm, a size that differs from dst's, truncated or corrupt blocks.
void decompress(const std::string& algorithm, std::uint64_t elemSize,
                std::span<const std::byte> src, std::span<std::byte> dst);

// Bitshuffle one block of `count` elements (count a multiple of 8) of elemSize bytes: bit row
// b * 8 + i holds bit i of byte b of every element (used to make bench and test data).
void bitShuffle(const std::byte* in, std::byte* out, std::size_t count, std::size_t elemSize);

// Undo bitshuffle on one block of `count` elements (count a multiple of 8) of elemSize bytes.
void bitUnshuffle(const std::byte* in, std::byte* out, std::size_t count, std::size_t elemSize);

} // namespace clscope::stream
