// The per-geometry tables of an OpenCL azint run, built on the host's cores and uploaded once.
#include "gpu/azint/device_tables.hpp"

#include "core/azint/csr_matrix.hpp"
#include "core/azint/tiles.hpp"
#include "core/range_pool.hpp"

#include <algorithm>
#include <mutex>

namespace clscope::azint {

namespace {

template <class T>
cl::Buffer uploaded(ClSession& s, const std::vector<T>& v, const std::string& what) {
    cl::Buffer b = s.allocate(std::max<std::size_t>(1, v.size()) * sizeof(T), what);
    if (!v.empty()) s.upload(b, v.data(), v.size() * sizeof(T), "copy H->D " + what);
    return b;
}

std::size_t longestRow(const CsrMatrix& csr) {
    std::int64_t most = 0;
    for (std::size_t b = 0; b < csr.rows(); ++b)
        most = std::max(most, csr.rowStart()[b + 1] - csr.rowStart()[b]);
    return std::size_t(most);
}

} // namespace

std::vector<std::uint32_t> binSizes(const Binning& binning) {
    std::vector<std::uint32_t> sizes(binning.bins(), 0);
    std::mutex merging;
    parallelRanges(binning.binOfPixel.size(), 16, [&](std::size_t k0, std::size_t k1) {
        std::vector<std::uint32_t> part(binning.bins(), 0);
        for (std::size_t k = k0; k < k1; ++k)
            if (binning.binOfPixel[k] >= 0) ++part[std::size_t(binning.binOfPixel[k])];
        const std::lock_guard<std::mutex> lock(merging);
        for (std::size_t b = 0; b < part.size(); ++b)
            sizes[b] += part[b];
    });
    return sizes;
}

std::size_t longestBinOf(const Binning& binning) {
    const std::vector<std::uint32_t> sizes = binSizes(binning);
    return sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
}

DeviceTables::DeviceTables(ClSession& session, const PixelMap& map, const Binning& binning,
                           const Params& params, Method method, TileShape tiles)
    : unitNorm_(!params.solidAngle && !params.polarization) { // core/azint: c = 1 exactly
    const bool perPixel = method == Method::Histogram || method == Method::Tiled;
    if (method == Method::Histogram)
        binOfPixel = uploaded(session, binning.binOfPixel, "azint bins");
    if (method == Method::Tiled) uploadTiles(session, binning, map.height, map.width, tiles);
    if (perPixel) { // the counts' start (AZ_STATIC_COUNTS), the longest bin
        const std::vector<std::uint32_t> sizes = binSizes(binning);
        binCount = uploaded(session, sizes, "azint bin counts");
        if (unitNorm_ && !sizes.empty()) // else the CSR matrix's
            longestBin_ = *std::max_element(sizes.begin(), sizes.end());
    }
    if (!perPixel || !unitNorm_) uploadCsr(session, map, binning, method);
}

// The tiles' spans and offsets (bytes where every span fits them: recipes.cpp's AZ_TILE_BYTES);
// the 32-bit bins too where a tile spans more than 16 bits. The sorted form: its segments and
// order instead (the spans still give the widest tile, which the run's values follow).
void DeviceTables::uploadTiles(ClSession& session, const Binning& binning, std::size_t height,
                               std::size_t width, TileShape tiles) {
    const TiledBins tiled(binning.binOfPixel, height, width, tiles.rows, tiles.columns);
    tiles_ = tiled.tiles(), widestTile_ = std::size_t(tiled.widest());
    if (tiles.sorted) {
        const SortedTiles sorted(binning.binOfPixel, height, width, tiles.rows, tiles.columns);
        tileSegments = uploaded(session, sorted.tileSegments(), "azint tile segments");
        segments = uploaded(session, sorted.segments(), "azint segments");
        tileOrder = uploaded(session, sorted.order(), "azint tile order");
        return;
    }
    tileSpans = uploaded(session, tiled.spans(), "azint tile spans");
    tileOffsets = tiled.fitsBytes() ? uploaded(session, tiled.byteOffsets(), "azint tile offsets")
                                    : uploaded(session, tiled.offsets(), "azint tile offsets");
    const bool wide = tiled.widest() > TiledBins::widestSpan;
    binOfPixel =
        uploaded(session, wide ? binning.binOfPixel : std::vector<std::int32_t>{}, "azint bins");
}

void DeviceTables::uploadCsr(ClSession& session, const PixelMap& map, const Binning& binning,
                             Method method) {
    const CsrMatrix csr(binning.binOfPixel, binning.bins());
    entries_ = csr.nonZeros(), longestBin_ = longestRow(csr);
    rowStart = uploaded(session, csr.rowStart(), "azint csr rows");
    rowPixels = uploaded(session, csr.pixels(), "azint csr pixels");
    if (method == Method::Sorted) {
        std::vector<std::int32_t> bin(entries_);
        parallelRanges(csr.rows(), 64, [&](std::size_t b0, std::size_t b1) {
            for (std::size_t b = b0; b < b1; ++b)
                std::fill(bin.begin() + csr.rowStart()[b], bin.begin() + csr.rowStart()[b + 1],
                          static_cast<std::int32_t>(b));
        });
        entryBin = uploaded(session, bin, "azint sorted bins");
    }
    if (unitNorm_) return;
    // Each entry's c, and each bin's sum of them in the reference's order (pixels ascending).
    std::vector<double> norm(entries_), total(csr.rows(), 0.0);
    parallelRanges(csr.rows(), 64, [&](std::size_t b0, std::size_t b1) {
        for (std::size_t b = b0; b < b1; ++b)
            for (auto i = std::size_t(csr.rowStart()[b]); i < std::size_t(csr.rowStart()[b + 1]);
                 ++i) {
                norm[i] = map.normalization[static_cast<std::size_t>(csr.pixels()[i])];
                total[b] += norm[i];
            }
    });
    rowNorm = uploaded(session, norm, "azint csr normalization");
    binNorm = uploaded(session, total, "azint bin normalization");
}

} // namespace clscope::azint
