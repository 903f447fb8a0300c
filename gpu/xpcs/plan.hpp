// Host-side plan of an xpcs device run: the pixel chunks (image row ranges) that fit the
// device, each chunk's pixels grouped by bin (padded for the layout), and gemm's work list.
#pragma once
#include "core/xpcs/xpcs.hpp"

#include <cstdint>
#include <vector>

namespace clscope::xpcs {

// How a variant wants a chunk laid out on the device (the LAYOUT macro of xpcs_common.cl).
enum class Layout : int { Raw = 0, FrameMajor = 1, PixelMajor = 2 };

struct LayoutSpec {
    Layout layout = Layout::Raw;
    std::size_t pixelAlign = 1; // each bin's pixel count padded to a multiple of this
    std::size_t frameAlign = 1; // frame count padded to a multiple of this (framePad)
};

// Image rows [rowBegin, rowEnd) with their labelled pixels grouped by bin.
struct Chunk {
    std::size_t rowBegin = 0, rowEnd = 0;
    std::vector<std::int32_t> source;  // padded pixels: index in the chunk's raw frame, -1 = pad
    std::vector<std::int32_t> offsets; // B+1 offsets of the bins in source (padded)
    std::size_t paddedPixels() const { return source.size(); }
};

// Split the image into row ranges holding at most maxPixels labelled pixels and maxRows rows
// (at least one row each); every chunk lists all B bins, possibly empty.
std::vector<Chunk> planChunks(const Bins& bins, std::size_t height, std::size_t width,
                              const LayoutSpec& spec, std::size_t maxPixels, std::size_t maxRows);

// gemm work list: for each bin, `slots` entries (bin, first row, end row, slot) splitting its
// padded rows in the chunk into pieces of multiples of `rowAlign` (empty pieces included,
// so that every gram slot is written by the first chunk).
std::vector<std::int32_t> gemmWorkList(const Chunk& chunk, std::size_t slots, std::size_t rowAlign);

std::size_t roundUp(std::size_t value, std::size_t multiple);

} // namespace clscope::xpcs
