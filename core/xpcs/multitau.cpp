// Multi-tau: frame blocks (memory, file) and the running statistics of every (bin, level, lag).
#include "core/xpcs/multitau.hpp"

#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/range_pool.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>

namespace clscope::xpcs {

namespace {

// Frames t of a pool in memory, t % K (K = the pool's frames), `frames` of them.
class MemoryBlocks : public FrameBlocks {
  public:
    MemoryBlocks(std::shared_ptr<const Array> a, std::size_t frames)
        : a_(std::move(a)), frames_(frames), pool_(a_->frameCount()),
          bytes_(a_->frameSize() * dtypeSize(a_->dtype())) {}
    std::size_t frameCount() const override { return frames_; }
    std::size_t height() const override { return a_->height(); }
    std::size_t width() const override { return a_->width(); }
    DType dtype() const override { return a_->dtype(); }
    Array read(std::size_t first, std::size_t count) const override {
        Array out(a_->dtype(), {count, a_->height(), a_->width()});
        for (std::size_t f = 0; f < count; ++f)
            std::copy_n(a_->bytes() + ((first + f) % pool_) * bytes_, bytes_,
                        out.bytes() + f * bytes_);
        return out;
    }
    const std::byte* inPlace(std::size_t first, std::size_t count) const override {
        const std::size_t at = first % pool_;
        return at + count <= pool_ ? a_->bytes() + at * bytes_ : nullptr;
    }

  private:
    std::shared_ptr<const Array> a_;
    std::size_t frames_, pool_, bytes_;
};

class FileBlocks : public FrameBlocks {
  public:
    FileBlocks(std::shared_ptr<const FrameStream> stream, const std::string& where)
        : stream_(std::move(stream)) {
        if (!stream_->isStack()) throw InputError(where + ": xpcs needs a (T,H,W) frame stack");
    }
    std::size_t frameCount() const override { return stream_->frameCount(); }
    std::size_t height() const override { return stream_->height(); }
    std::size_t width() const override { return stream_->width(); }
    DType dtype() const override { return stream_->dtype(); }
    Array read(std::size_t first, std::size_t count) const override {
        return stream_->read(first, count);
    }
    std::optional<SparseBlock> readSparse(std::size_t first, std::size_t count) const override {
        return stream_->readSparse(first, count);
    }

  private:
    std::shared_ptr<const FrameStream> stream_;
};

} // namespace

std::shared_ptr<const FrameBlocks> blocksInMemory(std::shared_ptr<const Array> frames) {
    const std::size_t count = frames->frameCount();
    return std::make_shared<MemoryBlocks>(std::move(frames), count);
}

std::shared_ptr<const FrameBlocks> blocksRepeating(std::shared_ptr<const Array> pool,
                                                   std::size_t frames) {
    return std::make_shared<MemoryBlocks>(std::move(pool), frames);
}

std::shared_ptr<const FrameBlocks> blocksOf(std::shared_ptr<const FrameStream> stream,
                                            const std::string& where) {
    return std::make_shared<FileBlocks>(std::move(stream), where);
}

std::size_t blockFrames(std::size_t frameBytes) {
    return std::clamp<std::size_t>((std::size_t(1) << 20) / std::max<std::size_t>(frameBytes, 1), 1,
                                   65536);
}

MultitauStats::MultitauStats(const Bins& bins, int channels, bool integerData)
    : pixels_(bins.pixelCounts), channels_(channels), integer_(integerData) {}

MultitauStats::Level& MultitauStats::level(int k) {
    const std::size_t bins = pixels_.size(), c = static_cast<std::size_t>(channels_);
    while (levels_.size() <= static_cast<std::size_t>(k)) {
        Level l;
        const int lags = multitauLagCount(static_cast<int>(levels_.size()), channels_);
        (integer_ ? l.sums.resize(bins * c) : l.fSums.resize(bins * c));
        l.lags.resize(bins * static_cast<std::size_t>(lags));
        levels_.push_back(std::move(l));
    }
    return levels_[k];
}

namespace {

double termToDouble(Int128 v) {
    return wideToDouble(v);
}
double termToDouble(std::int64_t v) {
    return narrowToDouble(v);
}

} // namespace

template <class I> void MultitauStats::addTerms(Lag& lag, I m, I d) {
    lag.numerator.add(m), lag.denominator.add(d);
    if (d == 0) return;
    if (m == 0) return lag.ratios.counted(1); // r_t = 0: no division
    lag.ratios.add(termToDouble(m) / termToDouble(d));
}

// The terms in 64 bits where both products fit (the same sums and doubles as in 128 bits).
template <class V>
void MultitauStats::addPair(Lag& lag, std::int64_t n, V gram, V s, Int128 earlier) {
    std::int64_t g, s64, e, m, d;
    if (asInt64(gram, g) && asInt64(s, s64) && asInt64(earlier, e) &&
        !__builtin_mul_overflow(n, g, &m) && !__builtin_mul_overflow(s64, e, &d)) [[likely]]
        return addTerms(lag, m, d);
    addTerms(lag, static_cast<Int128>(n) * static_cast<Int128>(gram),
             static_cast<Int128>(s) * earlier);
}

void MultitauStats::addPair(Lag& lag, double n, double product, double gram) {
    lag.fNumerator += gram, lag.fDenominator += product;
    if (product != 0.0) lag.ratios.add(n * gram / product);
}

// The ring slot of frame t - m of a level whose frame t is in slot `at` (m < c).
inline std::size_t slotBefore(std::size_t at, std::size_t m, std::size_t c) {
    return at >= m ? at - m : at + c - m;
}

// The lags j of a level that have an earlier row at row t: min(lags, t - lag0 + 1).
inline int lagsAt(std::size_t t, int lag0, int lags) {
    return t < std::size_t(lag0) ? 0 : int(std::min<std::size_t>(std::size_t(lags), t - lag0 + 1));
}

// Bins [b0, b1) of row r's products into the cache (a thread's slice of a row lies a row of
// all bins after the last: rows ahead are fetched while this one is folded).
template <class V>
void prefetchRow(const StatsRows<V>& rows, std::size_t r, std::size_t b0, std::size_t b1,
                 std::size_t bins, std::size_t lags) {
    const char* from = reinterpret_cast<const char*>(rows.products + (r * bins + b0) * lags);
    const char* to = reinterpret_cast<const char*>(rows.products + (r * bins + b1) * lags);
    for (; from < to; from += 64)
        __builtin_prefetch(from);
}

// Rows outer, bins inner: a thread reads its bins' slice of each row in turn, two rows ahead
// fetched, and each (bin, lag) still sees the rows in order (the same sums).
template <class V>
void MultitauStats::foldBins(const StatsRows<V>& rows, std::size_t b0, std::size_t b1) {
    const std::size_t c = static_cast<std::size_t>(channels_), span = c + rows.count;
    // Bins whose sums are small: their lags' Σ S_t S'_t at once, their sums kept in time order.
    thread_local std::vector<std::uint32_t> sums;
    std::vector<char> small(b1 - b0, 0);
    if constexpr (!std::is_floating_point_v<V>) {
        sums.resize((b1 - b0) * span);
        for (std::size_t b = b0; b < b1; ++b)
            if (smallSums(rows, b, sums.data() + (b - b0) * span))
                small[b - b0] = 1, foldDots(rows, b, sums.data() + (b - b0) * span);
    }
    const int lags = multitauLagCount(rows.level, channels_);
    const int lag0 = multitauFirstLag(rows.level, channels_);
    for (std::size_t r = 0, t = rows.first, at = t % c; r < rows.count;
         ++r, ++t, at = at + 1 == c ? 0 : at + 1) {
        if (r + 2 < rows.count) prefetchRow(rows, r + 2, b0, b1, pixels_.size(), std::size_t(lags));
        for (std::size_t b = b0; b < b1; ++b) {
            if constexpr (!std::is_floating_point_v<V>)
                if (small[b - b0]) {
                    foldNonZero(rows, r, b, sums.data() + (b - b0) * span);
                    continue;
                }
            foldRow(rows, r, b, at, lagsAt(t, lag0, lags));
        }
    }
    Level& l = levels_[static_cast<std::size_t>(rows.level)];
    for (std::size_t b = b0; b < b1; ++b) // the small bins' last C sums into the ring
        for (std::size_t r = rows.count > c ? rows.count - c : 0; small[b - b0] && r < rows.count;
             ++r)
            l.sums[b * c + (rows.first + r) % c] = sums[(b - b0) * span + c + r];
}

// Row r of bin b (frame t of its level in ring slot `at`, with `pairs` earlier rows).
template <class V>
void MultitauStats::foldRow(const StatsRows<V>& rows, std::size_t r, std::size_t b, std::size_t at,
                            int pairs) {
    Level& l = levels_[static_cast<std::size_t>(rows.level)];
    const std::size_t bins = pixels_.size(), c = static_cast<std::size_t>(channels_);
    const std::size_t lags = static_cast<std::size_t>(multitauLagCount(rows.level, channels_));
    const std::size_t lag0 = static_cast<std::size_t>(multitauFirstLag(rows.level, channels_));
    const V s = rows.sums[r * bins + b];
    if constexpr (std::is_floating_point_v<V>)
        l.fSums[b * c + at] = s;
    else
        l.sums[b * c + at] = static_cast<Int128>(s);
    const V* row = rows.products + (r * bins + b) * lags;
    Lag* lag = &l.lags[b * lags];
    for (int j = 0; j < pairs; ++j) {
        const std::size_t then = b * c + slotBefore(at, lag0 + std::size_t(j), c);
        if constexpr (std::is_floating_point_v<V>)
            addPair(lag[j], static_cast<double>(pixels_[b]), s * l.fSums[then], row[j]);
        else
            addPair(lag[j], pixels_[b], row[j], s, l.sums[then]);
    }
}

template <class V>
void MultitauStats::addRows(int k, std::size_t first, std::size_t count, const V* sums,
                            const V* products) {
    addRows(std::vector<StatsRows<V>>{{k, first, count, sums, products}});
}

template <class V> void MultitauStats::addRows(const std::vector<StatsRows<V>>& rows) {
    const std::size_t bins = pixels_.size();
    std::size_t work = 0;
    for (const StatsRows<V>& r : rows) // every level made before the threads start
        level(r.level), work += bins * r.count * std::size_t(multitauLagCount(r.level, channels_));
    // Bins [b0, b1), each over the rows in order (so any split gives the same sums).
    auto fold = [&](std::size_t b0, std::size_t b1) {
        for (const StatsRows<V>& r : rows)
            foldBins(r, b0, b1);
    };
    // Large blocks (many bins and rows, the device variants' blocks): bins over threads.
    const std::size_t threads =
        work < 200000
            ? 1
            : std::min<std::size_t>(
                  bins, threads_ ? threads_ : std::max(1u, std::thread::hardware_concurrency()));
    parallelRanges(bins, threads, fold);
    for (const StatsRows<V>& r : rows)
        levels_[static_cast<std::size_t>(r.level)].rows = r.first + r.count;
}

template void MultitauStats::addRows<std::int64_t>(int, std::size_t, std::size_t,
                                                   const std::int64_t*, const std::int64_t*);
template void MultitauStats::addRows<Int128>(int, std::size_t, std::size_t, const Int128*,
                                             const Int128*);
template void MultitauStats::addRows<double>(int, std::size_t, std::size_t, const double*,
                                             const double*);
template void MultitauStats::addRows<std::int64_t>(const std::vector<StatsRows<std::int64_t>>&);
template void MultitauStats::addRows<Int128>(const std::vector<StatsRows<Int128>>&);

void MultitauStats::setFolded(int k, std::size_t rows, const std::vector<FoldedLag>& lags) {
    Level& l = level(k);
    if (!integer_ || lags.size() != l.lags.size())
        throw std::logic_error("xpcs multi-tau: folded lags of another shape");
    for (std::size_t i = 0; i < lags.size(); ++i) {
        const FoldedLag& f = lags[i];
        Lag fresh;
        fresh.numerator.add(f.numerator), fresh.denominator.add(f.denominator);
        fresh.ratios = RatioMoments::restored(f.pairs, f.nonzero, f.mean, f.m2);
        l.lags[i] = fresh;
    }
    l.rows = rows;
}

Result MultitauStats::finish(const Bins& bins, std::size_t frames, const Params& params) const {
    Result r = makeResult(bins, 0, params);
    r.multitau = true;
    struct Where {
        std::size_t level, lag;
    };
    std::vector<Where> at;
    for (std::size_t k = 0; k < levels_.size(); ++k) {
        const int lags = multitauLagCount(static_cast<int>(k), channels_);
        for (int j = 0; j < lags; ++j) {
            const std::size_t m = static_cast<std::size_t>(multitauFirstLag(int(k), channels_) + j);
            if (m >= levels_[k].rows) break;
            at.push_back({k, static_cast<std::size_t>(j)});
            r.lagFrames.push_back(static_cast<std::int64_t>(m << k));
            r.levels.push_back(static_cast<std::int32_t>(k));
            r.tau.push_back(static_cast<double>(m << k) * params.frameTime.value_or(1.0));
        }
    }
    const std::size_t lagsOut = at.size(), nb = bins.count();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    r.frames = lagsOut;
    r.g2.assign(nb * lagsOut, nan);
    r.g2Err.assign(nb * lagsOut, nan);
    for (std::size_t b = 0; b < nb; ++b)
        for (std::size_t i = 0; i < lagsOut; ++i) {
            const int lags = multitauLagCount(static_cast<int>(at[i].level), channels_);
            const Lag& l = levels_[at[i].level].lags[b * std::size_t(lags) + at[i].lag];
            const bool empty = integer_ ? l.denominator.zero() : l.fDenominator == 0.0;
            if (!empty)
                r.g2[b * lagsOut + i] =
                    integer_ ? l.numerator.toDouble() / l.denominator.toDouble()
                             : l.fNumerator * static_cast<double>(pixels_[b]) / l.fDenominator;
            if (!empty && l.ratios.count() > 0) {
                const double c = static_cast<double>(l.ratios.count());
                r.g2Err[b * lagsOut + i] = std::sqrt(l.ratios.deviations() / c) / std::sqrt(c);
            }
        }
    (void)frames;
    return r;
}

std::uint64_t dtypeLargest(DType d) {
    switch (d) {
    case DType::UInt8:
        return 255;
    case DType::UInt16:
        return 65535;
    case DType::UInt32:
        return (std::uint64_t(1) << 32) - 1;
    case DType::Int32:
        return std::uint64_t(1) << 31;
    default:
        return 0;
    }
}

void checkMultitau(DType dtype, std::size_t frames, const LabelMask& mask, const Params& params) {
    if (params.channels < 4 || params.channels % 2 != 0 || params.channels > 1024)
        throw UsageError("xpcs: --channels must be even, >= 4 and <= 1024, not " +
                         std::to_string(params.channels));
    if (dtype != DType::UInt32 && dtype != DType::Int32) return;
    // Terms n N_t and S_t S'_t are at most n^2 (2^32 2^k)^2 with 2^k <= 2T / C.
    const Bins bins = makeBins(mask);
    std::int64_t most = 0;
    for (std::int64_t n : bins.pixelCounts)
        most = std::max(most, n);
    const double bits = 2 * std::log2(double(std::max<std::int64_t>(most, 1))) + 64 +
                        2 * std::log2(2.0 * double(frames) / params.channels + 1);
    if (bits >= 126)
        throw InputError("xpcs: multi-tau of 32-bit data over " + std::to_string(frames) +
                         " frames in a bin of " + std::to_string(most) +
                         " pixels could exceed the exact 128-bit sums; use fewer pixels per bin");
}

} // namespace clscope::xpcs
