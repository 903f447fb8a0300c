#include "gpu/xpcs/plan.hpp"

#include <algorithm>

namespace clscope::xpcs {

std::size_t roundUp(std::size_t value, std::size_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

namespace {

// The chunk of rows [rowBegin, rowEnd): pixels per bin in raster order, then padding.
Chunk makeChunk(const Bins& bins, std::size_t width, std::size_t rowBegin, std::size_t rowEnd,
                const LayoutSpec& spec) {
    Chunk c{rowBegin, rowEnd, {}, {0}};
    c.source.reserve(bins.pixelIndex.size() + bins.count() * spec.pixelAlign);
    const std::int64_t first = static_cast<std::int64_t>(rowBegin * width);
    const std::int64_t last = static_cast<std::int64_t>(rowEnd * width);
    for (std::size_t b = 0; b < bins.count(); ++b) {
        // Bins keep raster order, so the chunk's pixels of bin b are one contiguous run.
        const auto begin = bins.pixelIndex.begin() + bins.offsets[b];
        const auto end = bins.pixelIndex.begin() + bins.offsets[b + 1];
        const auto lo = std::lower_bound(begin, end, first);
        const auto hi = std::lower_bound(lo, end, last);
        const std::size_t at = c.source.size(), count = static_cast<std::size_t>(hi - lo);
        c.source.resize(roundUp(at + count, spec.pixelAlign), -1);
        std::transform(lo, hi, c.source.begin() + static_cast<std::ptrdiff_t>(at),
                       [first](std::int32_t p) { return static_cast<std::int32_t>(p - first); });
        c.offsets.push_back(static_cast<std::int32_t>(c.source.size()));
    }
    return c;
}

} // namespace

std::vector<Chunk> planChunks(const Bins& bins, std::size_t height, std::size_t width,
                              const LayoutSpec& spec, std::size_t maxPixels, std::size_t maxRows) {
    // Labelled pixels per image row, walking each bin's pixels (raster order) row by row: no
    // division per pixel; raw pointers, so that the vectors' data is not reloaded per pixel.
    std::vector<std::size_t> perRow(height, 0);
    std::size_t* rows = perRow.data();
    const std::int32_t* index = bins.pixelIndex.data();
    for (std::size_t b = 0; b < bins.count(); ++b) {
        std::size_t y = 0, rowEnd = width;
        const auto end = static_cast<std::size_t>(bins.offsets[b + 1]);
        for (auto k = static_cast<std::size_t>(bins.offsets[b]); k < end; ++k) {
            const auto p = static_cast<std::size_t>(index[k]);
            while (p >= rowEnd)
                ++y, rowEnd += width;
            ++rows[y];
        }
    }
    std::vector<Chunk> chunks;
    std::size_t begin = 0, pixels = 0;
    for (std::size_t y = 0; y < height; ++y) {
        const bool full = y > begin && (pixels + perRow[y] > maxPixels || y - begin >= maxRows);
        if (full) {
            chunks.push_back(makeChunk(bins, width, begin, y, spec));
            begin = y, pixels = 0;
        }
        pixels += perRow[y];
    }
    chunks.push_back(makeChunk(bins, width, begin, height, spec));
    return chunks;
}

std::vector<std::int32_t> gemmWorkList(const Chunk& chunk, std::size_t slots,
                                       std::size_t rowAlign) {
    std::vector<std::int32_t> work;
    for (std::size_t b = 0; b + 1 < chunk.offsets.size(); ++b) {
        const std::size_t begin = chunk.offsets[b], end = chunk.offsets[b + 1];
        const std::size_t piece = roundUp((end - begin + slots - 1) / slots, rowAlign);
        for (std::size_t s = 0; s < slots; ++s) {
            const std::size_t lo = std::min(end, begin + s * piece);
            const std::size_t hi = std::min(end, lo + piece);
            for (std::size_t v : {b, lo, hi, s})
                work.push_back(static_cast<std::int32_t>(v));
        }
    }
    return work;
}

} // namespace clscope::xpcs
