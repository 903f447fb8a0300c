// The CPU reference of multi-tau: each labelled pixel's last C values per level in a ring, a
// level's row binned into the next level when its pair is complete, every row's frame sums
// and lag products summed per bin exactly (128-bit integers; double for float data) and folded
// into MultitauStats. Frames are read block by block: memory does not grow with T.
#include "core/xpcs/multitau.hpp"

#include <chrono>
#include <cmath>
#include <deque>

namespace clscope::xpcs {

namespace {

// V: a pixel value of any level (int64 for integer data, double for float data);
// Acc: its exact sums and products (Int128, double).
template <class V, class Acc> class CpuLevels {
  public:
    CpuLevels(const Bins& bins, int channels, std::uint64_t largest, MultitauStats& stats)
        : bins_(bins), c_(static_cast<std::size_t>(channels)), stats_(stats) {
        std::int64_t most = 1;
        for (std::int64_t n : bins.pixelCounts)
            most = std::max(most, n);
        const double bits = std::log2(double(most)) + 2 * std::log2(double(largest) + 1);
        fast64Levels_ = bits < 62 ? static_cast<std::size_t>((62 - bits) / 2) : 0;
    }

    // Row t of level k (P pixel values in bin order).
    void push(std::size_t k, const V* row) {
        while (levels_.size() <= k)
            levels_.push_back(
                Level{0, std::vector<V>(c_ * pixels()), std::vector<V>(pixels()), false});
        Level& l = levels_[k];
        std::copy_n(row, pixels(), &l.ring[(l.rows % c_) * pixels()]);
        addRow(k, l);
        ++l.rows;
        if (!l.pending) {
            std::copy_n(row, pixels(), l.half.begin());
            l.pending = true;
            return;
        }
        l.pending = false;
        for (std::size_t p = 0; p < pixels(); ++p) // half becomes the binned row
            l.half[p] += row[p];
        push(k + 1, l.half.data());
    }

  private:
    struct Level {
        std::size_t rows;
        std::vector<V> ring; // C x P: row t at t % C
        std::vector<V> half; // the first row of an incomplete pair
        bool pending;
    };
    std::size_t pixels() const { return bins_.pixelIndex.size(); }

    // Frame sums and lag products of the newest row of level k, per bin: in int64 where
    // n (M 2^k)^2 stays below 2^62 (M: the dtype's largest value), else in Acc.
    void addRow(std::size_t k, const Level& l) {
        const int lags = multitauLagCount(int(k), int(c_));
        sums_.assign(bins_.count(), Acc{});
        products_.assign(bins_.count() * static_cast<std::size_t>(lags), Acc{});
        if (std::is_integral_v<V> && k < fast64Levels_)
            binSums<std::int64_t>(k, l, lags);
        else
            binSums<Acc>(k, l, lags);
        stats_.addRows<Acc>(static_cast<int>(k), l.rows, 1, sums_.data(), products_.data());
    }

    template <class S> void binSums(std::size_t k, const Level& l, int lags) {
        const int lag0 = multitauFirstLag(int(k), int(c_));
        const std::size_t t = l.rows;
        const V* now = &l.ring[(t % c_) * pixels()];
        for (std::size_t b = 0; b < bins_.count(); ++b) {
            const std::size_t p0 = static_cast<std::size_t>(bins_.offsets[b]),
                              p1 = static_cast<std::size_t>(bins_.offsets[b + 1]);
            S sum{};
            for (std::size_t p = p0; p < p1; ++p)
                sum += static_cast<S>(now[p]);
            sums_[b] = static_cast<Acc>(sum);
            for (int j = 0; j < lags && std::size_t(lag0 + j) <= t; ++j) {
                const V* then = &l.ring[((t - std::size_t(lag0 + j)) % c_) * pixels()];
                S product{};
                for (std::size_t p = p0; p < p1; ++p)
                    product += static_cast<S>(now[p]) * static_cast<S>(then[p]);
                products_[b * static_cast<std::size_t>(lags) + std::size_t(j)] =
                    static_cast<Acc>(product);
            }
        }
    }

    const Bins& bins_;
    std::size_t c_;
    MultitauStats& stats_;
    std::deque<Level> levels_;
    std::vector<Acc> sums_, products_;
    std::size_t fast64Levels_ = 0; // levels whose sums fit int64
};

} // namespace

Result correlateMultitauCpu(const FrameBlocks& frames, const LabelMask& mask, const Params& params,
                            const Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    checkMultitau(frames.dtype(), frames.frameCount(), mask, params);
    const Bins bins = makeBins(mask);
    const bool integer = frames.dtype() != DType::Float32 && frames.dtype() != DType::Float64;
    MultitauStats stats(bins, params.channels, integer);
    const std::size_t total = frames.frameCount(), frameSize = frames.height() * frames.width();
    const std::size_t step = blockFrames(frameSize * dtypeSize(frames.dtype()));
    auto run = [&](auto& levels, auto zero) {
        std::vector<decltype(zero)> row(bins.pixelIndex.size());
        for (std::size_t first = 0; first < total; first += step) {
            const Array block = frames.read(first, std::min(step, total - first));
            visitArray(block, [&](auto values) {
                for (std::size_t f = 0; f < block.frameCount(); ++f) {
                    for (std::size_t p = 0; p < row.size(); ++p)
                        row[p] = static_cast<decltype(zero)>(
                            values[f * frameSize + std::size_t(bins.pixelIndex[p])]);
                    levels.push(0, row.data());
                }
            });
            progress.report(double(first + block.frameCount()) / double(total));
            progress.checkCancel();
        }
    };
    if (integer) {
        CpuLevels<std::int64_t, Int128> levels(bins, params.channels, dtypeLargest(frames.dtype()),
                                               stats);
        run(levels, std::int64_t{});
    } else {
        CpuLevels<double, double> levels(bins, params.channels, 0, stats);
        run(levels, double{});
    }
    Result result = stats.finish(bins, total, params);
    stampHostRun(result, "cpu", "xpcs multitau cpu", start);
    return result;
}

} // namespace clscope::xpcs
