#include "core/xpcs/pixel_errors.hpp"

#include "core/range_pool.hpp"
#include "core/xpcs/lag_sums.hpp"
#include "core/xpcs/sparse_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <thread>

namespace clscope::xpcs {

namespace {

// A block's stored entries into the series (a pixel listed twice adds, as densified).
void addStoredValues(const SparseBlock& block, std::size_t first, std::size_t total,
                     const std::vector<std::int32_t>& positions, std::vector<double>& out) {
    for (std::size_t f = 0; f < block.frames(); ++f)
        for (auto i = std::size_t(block.ptr[f]); i < std::size_t(block.ptr[f + 1]); ++i)
            if (const std::int32_t at = positions[std::size_t(block.pixel[i])]; at >= 0)
                out[std::size_t(at) * total + first + f] += block.count[i];
}

// The labelled pixels' series, pixel by pixel in the bins' order: P*T. Frames stored as
// entries are read as entries, never densified.
std::vector<double> pixelSeries(const FrameBlocks& frames, const Bins& bins) {
    const std::size_t total = frames.frameCount(), count = bins.pixelIndex.size();
    std::vector<double> out(count * total);
    const std::size_t step =
        blockFrames(frames.height() * frames.width() * dtypeSize(frames.dtype()));
    const std::vector<std::int32_t> positions =
        total > 0 && frames.readSparse(0, 1) ? positionsOf(bins, frames.height() * frames.width())
                                             : std::vector<std::int32_t>{};
    SparseBlock entries;
    for (std::size_t first = 0; first < total; first += step) {
        if (!positions.empty() &&
            frames.readSparseInto(first, std::min(step, total - first), entries)) {
            addStoredValues(entries, first, total, positions, out);
            continue;
        }
        const Array block = frames.read(first, std::min(step, total - first));
        const std::size_t size = block.height() * block.width();
        visitArray(block, [&](auto values) {
            for (std::size_t f = 0; f < block.frameCount(); ++f)
                for (std::size_t i = 0; i < count; ++i)
                    out[i * total + first + f] =
                        static_cast<double>(values[f * size + bins.pixelIndex[i]]);
        });
    }
    return out;
}

std::vector<double> levelSeries(const double* series, std::size_t frames, int k) {
    const std::size_t width = std::size_t(1) << k;
    std::vector<double> out(frames >> k, 0.0);
    for (std::size_t t = 0; t < out.size(); ++t)
        for (std::size_t f = 0; f < width; ++f)
            out[t] += series[t * width + f];
    return out;
}

// G2_p / (IP_p IF_p) = (T_k − m) Σ J_t J_{t−m} / (Σ J_t Σ J_{t−m}); false where IP IF = 0.
bool pixelRatio(const std::vector<double>& j, std::size_t m, double& ratio) {
    if (m >= j.size()) return false;
    double g = 0, later = 0, earlier = 0;
    for (std::size_t t = m; t < j.size(); ++t)
        g += j[t] * j[t - m], later += j[t], earlier += j[t - m];
    if (later * earlier == 0.0) return false;
    ratio = static_cast<double>(j.size() - m) * g / (later * earlier);
    return true;
}

// The ratio of every lag of one pixel's series (NaN where IP IF = 0) into out[0..L).
void pixelRatios(const double* series, std::size_t total, const std::vector<LagAt>& lags,
                 double* out) {
    std::map<int, std::vector<double>> levels; // the pixel's series of each level, once
    for (std::size_t j = 0; j < lags.size(); ++j) {
        auto it = levels.find(lags[j].level);
        if (it == levels.end())
            it = levels.emplace(lags[j].level, levelSeries(series, total, lags[j].level)).first;
        double ratio = 0;
        out[j] = pixelRatio(it->second, lags[j].lag, ratio)
                     ? ratio
                     : std::numeric_limits<double>::quiet_NaN();
    }
}

// Unbiased standard deviation of column j's numbers (NaN left out) over √(their count).
double columnError(const std::vector<double>& ratios, std::size_t columns, std::size_t j) {
    double sum = 0, squares = 0;
    std::size_t count = 0;
    for (std::size_t i = j; i < ratios.size(); i += columns)
        if (!std::isnan(ratios[i])) sum += ratios[i], ++count;
    if (count < 2) return std::numeric_limits<double>::quiet_NaN();
    const double c = static_cast<double>(count), mean = sum / c;
    for (std::size_t i = j; i < ratios.size(); i += columns)
        if (!std::isnan(ratios[i])) squares += (ratios[i] - mean) * (ratios[i] - mean);
    return std::sqrt(squares / (c - 1)) / std::sqrt(c);
}

} // namespace

std::vector<double> symmetricPixelErrors(const FrameBlocks& frames, const LabelMask& labels,
                                         const Result& r) {
    const Bins bins = makeBins(labels);
    if (bins.labels != r.labels)
        throw std::logic_error("symmetricPixelErrors: the labels' bins are not the result's");
    const std::size_t total = frames.frameCount(), columns = r.frames;
    const std::vector<double> series = pixelSeries(frames, bins);
    std::vector<LagAt> lags;
    for (std::size_t j = 0; j < columns; ++j)
        lags.push_back(lagAt(r, j));
    RangePool pool(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<double> out(r.binCount() * columns);
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        const auto first = static_cast<std::size_t>(bins.offsets[b]);
        const std::size_t pixels = static_cast<std::size_t>(bins.offsets[b + 1]) - first;
        std::vector<double> ratios(pixels * columns);
        pool.run(pixels, std::min<std::size_t>(pixels, 64), [&](std::size_t i0, std::size_t i1) {
            for (std::size_t i = i0; i < i1; ++i)
                pixelRatios(&series[(first + i) * total], total, lags, &ratios[i * columns]);
        });
        for (std::size_t j = 0; j < columns; ++j)
            out[b * columns + j] = columnError(ratios, columns, j);
    }
    return out;
}

} // namespace clscope::xpcs
