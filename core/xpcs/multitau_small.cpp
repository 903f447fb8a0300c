// MultitauStats' fold of a bin whose frame sums are small (multitau.hpp: smallSums, foldDots,
// foldNonZero): each lag's Σ S_t S'_t and pair count as one dot product of the bin's sums, then
// only the non-zero products visited. foldBins (multitau.cpp) takes it for integer rows.
#include "core/xpcs/multitau.hpp"

#include <algorithm>

namespace clscope::xpcs {

namespace {

// Σ a[i] b[i] and the count of i with a[i] b[i] != 0 over n values (uint32: the products and
// their sum within 64 bits, as the caller has checked; the loop vectorises).
void dotAndCount(const std::uint32_t* a, const std::uint32_t* b, std::size_t n, std::uint64_t& dot,
                 std::uint64_t& count) {
    std::uint64_t d = 0, k = 0;
    for (std::size_t i = 0; i < n; ++i) {
        d += std::uint64_t(a[i]) * std::uint64_t(b[i]);
        k += std::uint64_t((a[i] != 0) & (b[i] != 0));
    }
    dot = d, count = k;
}

} // namespace

template <class V>
bool MultitauStats::smallSums(const StatsRows<V>& rows, std::size_t b, std::uint32_t* sums) const {
    const Level& l = levels_[static_cast<std::size_t>(rows.level)];
    const std::size_t bins = pixels_.size(), c = static_cast<std::size_t>(channels_);
    const std::size_t count = rows.count, first = rows.first;
    const auto small = [](Int128 v) { return v >= 0 && v <= 0x7fffffff; };
    std::fill(sums, sums + c, 0u);
    Int128 most = 0;
    for (std::size_t i = first >= c ? 0 : c - first; i < c; ++i) {
        const Int128 v = l.sums[b * c + (first - c + i) % c];
        if (!small(v)) return false;
        sums[i] = static_cast<std::uint32_t>(v), most = std::max(most, v);
    }
    for (std::size_t r = 0; r < count; ++r) {
        const Int128 v = static_cast<Int128>(rows.sums[r * bins + b]);
        if (!small(v)) return false;
        sums[c + r] = static_cast<std::uint32_t>(v), most = std::max(most, v);
    }
    return most * most * static_cast<Int128>(std::max<std::size_t>(count, 1)) < (Int128(1) << 62);
}

template <class V>
void MultitauStats::foldDots(const StatsRows<V>& rows, std::size_t b, const std::uint32_t* sums) {
    Level& l = levels_[static_cast<std::size_t>(rows.level)];
    const std::size_t c = static_cast<std::size_t>(channels_);
    const std::size_t lags = static_cast<std::size_t>(multitauLagCount(rows.level, channels_));
    const std::size_t lag0 = static_cast<std::size_t>(multitauFirstLag(rows.level, channels_));
    for (std::size_t j = 0; j < lags; ++j) {
        const std::size_t lag = lag0 + j, r0 = rows.first >= lag ? 0 : lag - rows.first;
        if (r0 >= rows.count) continue;
        std::uint64_t dot, nonzero;
        dotAndCount(sums + c + r0, sums + c + r0 - lag, rows.count - r0, dot, nonzero);
        l.lags[b * lags + j].denominator.add(static_cast<std::int64_t>(dot));
        l.lags[b * lags + j].ratios.counted(nonzero);
    }
}

template <class V>
void MultitauStats::foldNonZero(const StatsRows<V>& rows, std::size_t r, std::size_t b,
                                const std::uint32_t* sums) {
    Level& l = levels_[static_cast<std::size_t>(rows.level)];
    const std::size_t bins = pixels_.size(), c = static_cast<std::size_t>(channels_);
    const std::size_t lags = static_cast<std::size_t>(multitauLagCount(rows.level, channels_));
    const std::size_t lag0 = static_cast<std::size_t>(multitauFirstLag(rows.level, channels_));
    const V* row = rows.products + (r * bins + b) * lags;
    const std::int64_t n = pixels_[b], s = sums[c + r];
    for (std::size_t j = 0; j < lags; ++j) {
        const std::size_t lag = lag0 + j;
        if (row[j] == 0 || rows.first + r < lag) continue;
        Lag& at = l.lags[b * lags + j];
        const std::int64_t d = s * std::int64_t(sums[c + r - lag]); // fits: smallSums
        std::int64_t g, m;
        if (asInt64(row[j], g) && !__builtin_mul_overflow(n, g, &m)) [[likely]] {
            at.numerator.add(m);
            if (d != 0) at.ratios.addCounted(narrowToDouble(m) / narrowToDouble(d));
        } else {
            const Int128 wide = static_cast<Int128>(n) * static_cast<Int128>(row[j]);
            at.numerator.add(wide);
            if (d != 0) at.ratios.addCounted(wideToDouble(wide) / narrowToDouble(d));
        }
    }
}

template bool MultitauStats::smallSums<std::int64_t>(const StatsRows<std::int64_t>&, std::size_t,
                                                     std::uint32_t*) const;
template bool MultitauStats::smallSums<Int128>(const StatsRows<Int128>&, std::size_t,
                                               std::uint32_t*) const;
template void MultitauStats::foldDots<std::int64_t>(const StatsRows<std::int64_t>&, std::size_t,
                                                    const std::uint32_t*);
template void MultitauStats::foldDots<Int128>(const StatsRows<Int128>&, std::size_t,
                                              const std::uint32_t*);
template void MultitauStats::foldNonZero<std::int64_t>(const StatsRows<std::int64_t>&, std::size_t,
                                                       std::size_t, const std::uint32_t*);
template void MultitauStats::foldNonZero<Int128>(const StatsRows<Int128>&, std::size_t, std::size_t,
                                                 const std::uint32_t*);

} // namespace clscope::xpcs
