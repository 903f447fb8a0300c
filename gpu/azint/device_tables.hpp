// The per-geometry tables an OpenCL run of azint uploads once (device_run.cpp): each pixel's
// bin (histogram; tiled where a tile spans more than 16 bits), the CSR matrix bin -> pixels (csr,
// sorted) and each entry's bin (sorted), the tiles' bins (tiled: core/azint/tiles.hpp; its sorted
// form's segments and order instead where AZ_TILE_SORTED), each bin's binned pixels (histogram,
// tiled: the counts' start where AZ_STATIC_COUNTS);
// where corrections are asked, each entry's normalisation and each bin's sum of them, added up
// in the reference's order (azint_norm).
#pragma once
#include "core/azint/binning.hpp"
#include "core/azint/pixel_map.hpp"
#include "gpu/azint/azint_gpu.hpp"
#include "gpu/azint/recipes.hpp"
#include "gpu/runtime/session.hpp"

#include <cstdint>
#include <vector>

namespace clscope::azint {

class DeviceTables {
  public:
    // tiles: tiled's tile shape (unused by the other methods).
    DeviceTables(ClSession& session, const PixelMap& map, const Binning& binning,
                 const Params& params, Method method, TileShape tiles = {});

    // Every pixel's normalisation is 1: each bin's normalisation sum is its count.
    bool unitNorm() const { return unitNorm_; }
    // The most pixels a bin holds.
    std::size_t longestBin() const { return longestBin_; }
    // Entries of the CSR matrix (the binned pixels).
    std::size_t entries() const { return entries_; }
    // Tiles of the image, the most bins one spans (tiled).
    std::size_t tiles() const { return tiles_; }
    std::size_t widestTile() const { return widestTile_; }

    cl::Buffer binOfPixel;             // histogram; tiled (a 1-element one where no tile is wide)
    cl::Buffer binCount;               // histogram, tiled: each bin's binned pixels (uint32)
    cl::Buffer tileSpans, tileOffsets; // tiled
    cl::Buffer tileSegments, segments, tileOrder; // tiled's sorted form (SortedTiles)
    cl::Buffer rowStart, rowPixels;               // csr, sorted, azint_norm
    cl::Buffer entryBin;                          // sorted
    cl::Buffer rowNorm, binNorm;                  // azint_norm (corrections only)

  private:
    void uploadCsr(ClSession& session, const PixelMap& map, const Binning& binning, Method method);
    void uploadTiles(ClSession& session, const Binning& binning, std::size_t height,
                     std::size_t width, TileShape tiles);

    bool unitNorm_ = true;
    std::size_t longestBin_ = 0, entries_ = 0, tiles_ = 0, widestTile_ = 0;
};

// The pixels each bin of the binning holds (its binned pixels: the same in every frame).
std::vector<std::uint32_t> binSizes(const Binning& binning);
// The most pixels a bin of the binning holds.
std::size_t longestBinOf(const Binning& binning);

} // namespace clscope::azint
