// The image cut into tiles for the OpenCL tiled variant (resources/kernels/azint_tiled.cl): each
// tile's lowest bin and span of bins, and each pixel's bin as a 16-bit offset from its tile's
// lowest, tile by tile, so that a work-group reads its tile's bins at half the bytes of the
// 32-bit table and sums them in a local histogram of its span. Tiles of rows x columns from the
// top left; those at the bottom and right edges are cut by the image (their pixels outside it
// have no bin).
#pragma once
#include <cstdint>
#include <vector>

namespace clscope::azint {

class TiledBins {
  public:
    // An offset that marks no bin (masked, out of the ranges, outside the image).
    static constexpr std::uint16_t noBin = 0xFFFF;
    // The widest span whose offsets fit 16 bits (0 .. noBin - 1). A wider tile (a cake of many
    // bins) keeps offset 0 for its binned pixels: the kernel takes their bins from the 32-bit
    // table.
    static constexpr std::int64_t widestSpan = 0xFFFF;
    // The widest span whose offsets fit 8 bits (0 .. 0xFE; 0xFF: no bin): where every tile's
    // span is within it, the offsets go to the device as bytes (byteOffsets).
    static constexpr std::int64_t byteSpan = 0xFF;

    // binOfPixel[k]: the bin of pixel k (row-major, height x width), or -1 for none.
    TiledBins(const std::vector<std::int32_t>& binOfPixel, std::size_t height, std::size_t width,
              std::size_t rows, std::size_t columns);

    std::size_t tiles() const { return spans_.size() / 2; }
    // Per tile: its lowest bin and its span (highest - lowest + 1; 0 where no pixel is binned).
    const std::vector<std::int32_t>& spans() const { return spans_; }
    // Per tile, its rows x columns pixels row by row: bin - the tile's lowest, or noBin.
    const std::vector<std::uint16_t>& offsets() const { return offsets_; }
    // Every tile's span within byteSpan (and a bin in some tile).
    bool fitsBytes() const { return widest_ > 0 && widest_ <= byteSpan; }
    // The offsets as bytes (noBin: 0xFF), where fitsBytes().
    std::vector<std::uint8_t> byteOffsets() const;
    // The widest span of a tile.
    std::int64_t widest() const { return widest_; }

  private:
    std::vector<std::int32_t> spans_;
    std::vector<std::uint16_t> offsets_;
    std::int64_t widest_ = 0;
};

// The tiles' sorted form (azint_tiled_sorted): each tile's binned pixels sorted by bin (their
// in-tile indices, row x columns + column, ascending within a bin), cut into segments of one bin
// each, so that a work-item sums a segment of a frame without atomics. Tiles as TiledBins cuts
// them; at most 65,536 pixels a tile (16-bit indices).
class SortedTiles {
  public:
    static constexpr std::size_t largestTile = std::size_t(1) << 16;

    // binOfPixel as TiledBins'.
    SortedTiles(const std::vector<std::int32_t>& binOfPixel, std::size_t height, std::size_t width,
                std::size_t rows, std::size_t columns);

    std::size_t tiles() const { return tileSegments_.size() - 1; }
    // Per tile, its first segment (tiles() + 1 values: the last, every segment's end).
    const std::vector<std::int32_t>& tileSegments() const { return tileSegments_; }
    // Per segment, three values: its bin, its first entry and its end (entries of its tile).
    const std::vector<std::int32_t>& segments() const { return segments_; }
    // Per tile, rows x columns entries: its binned pixels' in-tile indices by bin, then 0.
    const std::vector<std::uint16_t>& order() const { return order_; }

  private:
    std::vector<std::int32_t> tileSegments_, segments_;
    std::vector<std::uint16_t> order_;
};

} // namespace clscope::azint
