#include "core/azint/tiles.hpp"

#include "core/range_pool.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace clscope::azint {

TiledBins::TiledBins(const std::vector<std::int32_t>& binOfPixel, std::size_t height,
                     std::size_t width, std::size_t rows, std::size_t columns) {
    if (rows == 0 || columns == 0 || binOfPixel.size() != height * width)
        throw std::invalid_argument("azint tiles: no tile shape, or bins unlike the image");
    const std::size_t down = (height + rows - 1) / rows, across = (width + columns - 1) / columns;
    const std::size_t area = rows * columns;
    spans_.assign(2 * down * across, 0);
    offsets_.assign(down * across * area, noBin);
    // Each tile's pixels: (y, x) of its rows x columns, those inside the image.
    const auto each = [&](std::size_t tile, auto&& f) {
        const std::size_t top = tile / across * rows, left = tile % across * columns;
        for (std::size_t y = top; y < std::min(top + rows, height); ++y)
            for (std::size_t x = left; x < std::min(left + columns, width); ++x)
                f((y - top) * columns + (x - left), binOfPixel[y * width + x]);
    };
    parallelRanges(down * across, 64, [&](std::size_t t0, std::size_t t1) {
        for (std::size_t tile = t0; tile < t1; ++tile) {
            std::int32_t lo = INT32_MAX, hi = -1;
            each(tile, [&](std::size_t, std::int32_t b) {
                if (b >= 0) lo = std::min(lo, b), hi = std::max(hi, b);
            });
            if (hi < 0) continue;
            const std::int64_t span = std::int64_t(hi) - lo + 1;
            spans_[2 * tile] = lo, spans_[2 * tile + 1] = static_cast<std::int32_t>(span);
            std::uint16_t* offset = offsets_.data() + tile * area;
            each(tile, [&](std::size_t at, std::int32_t b) {
                if (b >= 0) offset[at] = span > widestSpan ? 0 : std::uint16_t(b - lo);
            });
        }
    });
    for (std::size_t tile = 0; tile < tiles(); ++tile)
        widest_ = std::max<std::int64_t>(widest_, spans_[2 * tile + 1]);
}

std::vector<std::uint8_t> TiledBins::byteOffsets() const {
    if (!fitsBytes())
        throw std::logic_error("azint tiles: a tile spans more than a byte's offsets");
    std::vector<std::uint8_t> bytes(offsets_.size());
    std::transform(offsets_.begin(), offsets_.end(), bytes.begin(),
                   [](std::uint16_t o) { return std::uint8_t(o == noBin ? 0xFF : o); });
    return bytes;
}

SortedTiles::SortedTiles(const std::vector<std::int32_t>& binOfPixel, std::size_t height,
                         std::size_t width, std::size_t rows, std::size_t columns) {
    if (rows == 0 || columns == 0 || binOfPixel.size() != height * width)
        throw std::invalid_argument("azint tiles: no tile shape, or bins unlike the image");
    if (rows * columns > largestTile)
        throw std::invalid_argument("azint tiles: more than 65,536 pixels a sorted tile");
    const std::size_t down = (height + rows - 1) / rows, across = (width + columns - 1) / columns;
    const std::size_t area = rows * columns;
    order_.assign(down * across * area, 0);
    // Each tile's segments (bin, first, end), made in parallel, then joined in tile order.
    std::vector<std::vector<std::int32_t>> parts(down * across);
    parallelRanges(down * across, 64, [&](std::size_t t0, std::size_t t1) {
        std::vector<std::pair<std::int32_t, std::uint16_t>> pixels; // (bin, in-tile index)
        for (std::size_t tile = t0; tile < t1; ++tile) {
            const std::size_t top = tile / across * rows, left = tile % across * columns;
            pixels.clear();
            for (std::size_t y = top; y < std::min(top + rows, height); ++y)
                for (std::size_t x = left; x < std::min(left + columns, width); ++x)
                    if (const std::int32_t b = binOfPixel[y * width + x]; b >= 0)
                        pixels.emplace_back(b, std::uint16_t((y - top) * columns + (x - left)));
            std::sort(pixels.begin(), pixels.end());
            for (std::size_t i = 0; i < pixels.size(); ++i) {
                order_[tile * area + i] = pixels[i].second;
                if (i == 0 || pixels[i].first != pixels[i - 1].first)
                    parts[tile].insert(parts[tile].end(), {pixels[i].first, std::int32_t(i), 0});
                parts[tile].back() = std::int32_t(i + 1); // the segment's end so far
            }
        }
    });
    tileSegments_.assign(1, 0);
    for (const std::vector<std::int32_t>& part : parts) {
        segments_.insert(segments_.end(), part.begin(), part.end());
        tileSegments_.push_back(std::int32_t(segments_.size() / 3));
    }
}

} // namespace clscope::azint
