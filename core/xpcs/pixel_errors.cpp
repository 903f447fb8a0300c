#include "core/xpcs/pixel_errors.hpp"

#include "core/xpcs/lag_sums.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace clscope::xpcs {

namespace {

// The labelled pixels' series, pixel by pixel in the bins' order: P*T.
std::vector<double> pixelSeries(const FrameBlocks& frames, const Bins& bins) {
    const std::size_t total = frames.frameCount(), count = bins.pixelIndex.size();
    std::vector<double> out(count * total);
    const std::size_t step =
        blockFrames(frames.height() * frames.width() * dtypeSize(frames.dtype()));
    for (std::size_t first = 0; first < total; first += step) {
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

// Welford's running mean and sum of squares of one (bin, lag)'s pixel ratios.
struct Running {
    std::size_t count = 0;
    double mean = 0, m2 = 0;
    void add(double x) {
        ++count;
        const double d = x - mean;
        mean += d / static_cast<double>(count);
        m2 += d * (x - mean);
    }
    double error() const {
        if (count < 2) return std::numeric_limits<double>::quiet_NaN();
        const double c = static_cast<double>(count);
        return std::sqrt(m2 / (c - 1)) / std::sqrt(c);
    }
};

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

} // namespace

std::vector<double> symmetricPixelErrors(const FrameBlocks& frames, const LabelMask& labels,
                                         const Result& r) {
    const Bins bins = makeBins(labels);
    if (bins.labels != r.labels)
        throw std::logic_error("symmetricPixelErrors: the labels' bins are not the result's");
    const std::size_t total = frames.frameCount();
    const std::vector<double> series = pixelSeries(frames, bins);
    std::vector<LagAt> lags;
    for (std::size_t j = 0; j < r.frames; ++j)
        lags.push_back(lagAt(r, j));
    std::vector<double> out(r.binCount() * r.frames);
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        std::vector<Running> running(r.frames);
        for (auto i = bins.offsets[b]; i < bins.offsets[b + 1]; ++i) {
            std::map<int, std::vector<double>> levels;
            for (std::size_t j = 0; j < r.frames; ++j) {
                auto it = levels.find(lags[j].level);
                if (it == levels.end())
                    it = levels
                             .emplace(lags[j].level, levelSeries(&series[std::size_t(i) * total],
                                                                 total, lags[j].level))
                             .first;
                double ratio = 0;
                if (pixelRatio(it->second, lags[j].lag, ratio)) running[j].add(ratio);
            }
        }
        for (std::size_t j = 0; j < r.frames; ++j)
            out[b * r.frames + j] = running[j].error();
    }
    return out;
}

} // namespace clscope::xpcs
