// Frames as their stored entries, not densified: what the sparse correlators read
// (DESIGN.md §5 "Sparse correlation"; docs/SPARSE.md). A CSR file, an event list binned into
// frames and a Rigaku file give their entries as stored (a pixel may be listed more than once
// in a frame: its counts add; a count may be 0); a dense stack gives its non-zero pixels.
#pragma once
#include "core/array.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clscope {

struct SparseBlock {
    std::size_t first = 0;            // the stack's index of frame 0 of the block
    std::vector<std::int64_t> ptr{0}; // frame f's entries: [ptr[f], ptr[f + 1])
    std::vector<std::int32_t> pixel;  // row-major index into H×W, within [0, H·W)
    std::vector<std::uint32_t> count;
    std::string where; // FILE:/dataset of the entries, in messages

    std::size_t frames() const { return ptr.size() - 1; }
    std::size_t entries() const { return pixel.size(); }
};

// A block's frames whose entries lie in memory elsewhere, frame by frame (no copy): frame f's
// ptr[f + 1] - ptr[f] entries at pixel[f] and count[f].
struct SparseView {
    std::size_t first = 0;
    std::vector<std::int64_t> ptr{0};
    std::vector<const std::int32_t*> pixel;
    std::vector<const std::uint32_t*> count;
    std::string where;

    std::size_t frames() const { return ptr.size() - 1; }
    std::size_t entries() const { return std::size_t(ptr.back()); }
};
// A view of a block's own entries (valid while the block is).
SparseView viewOf(const SparseBlock& block);

// The non-zero pixels of a dense (count, H, W) block of unsigned integers (InputError for
// other types), frame 0 being frame `first` of the stack.
SparseBlock sparseOf(const Array& dense, std::size_t first, const std::string& where);

// A block's frames as a dense (frames, height, width) array of `dtype` (uint8, uint16, uint32):
// a pixel listed more than once holds the sum of its counts (InputError beyond the type).
Array denseOf(const SparseBlock& block, std::size_t height, std::size_t width, DType dtype);

// The message for a pixel of frame `frame` whose counts sum to `sum`, beyond `dtype`.
std::string sumBeyondType(const std::string& where, std::int64_t pixel, std::size_t frame,
                          std::uint64_t sum, DType dtype);

} // namespace clscope
