// Template bodies of xpcs.hpp: lag statistics and two-time maps from a bin's Gram matrix.
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>

namespace clscope::xpcs {

// An exact integer value of a Gram entry or frame sum (doubles hold integers below 2^53).
template <class Value> Int128 exactInteger(Value v) {
    if constexpr (std::is_floating_point_v<Value>)
        return static_cast<Int128>(static_cast<std::int64_t>(v));
    else
        return static_cast<Int128>(v);
}

inline void WideSum::add(Int128 v) {
    const UInt128 before = low;
    low += static_cast<UInt128>(v);
    high += (low < before ? 1 : 0) - (v < 0 ? 1 : 0);
}

inline double WideSum::toDouble() const {
    const bool negative = (low >> 127) != 0;
    if ((high == 0 && !negative) || (high == -1 && negative))
        return wideToDouble(static_cast<Int128>(low));
    return static_cast<double>(high) * 0x1p128 +
           static_cast<double>(static_cast<std::uint64_t>(low >> 64)) * 0x1p64 +
           static_cast<double>(static_cast<std::uint64_t>(low));
}

inline double wideToDouble(Int128 v) {
    return static_cast<double>(static_cast<std::int64_t>(v >> 64)) * 0x1p64 +
           static_cast<double>(static_cast<std::uint64_t>(v));
}

namespace detail {

// Integer data: g2 = (n Σ N_t) / (Σ S_t S'_t) with both sums exact; r_t likewise per pair.
template <class Sum, class GramAt>
void lagStatisticsExact(std::size_t frames, std::int64_t pixels, const std::vector<Sum>& sums,
                        GramAt&& gramAt, double* g2Row, double* errRow) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Int128 n = pixels;
    auto pair = [&](std::size_t t, std::size_t lag, Int128& m, Int128& d) {
        m = n * exactInteger(gramAt(t, t - lag));
        d = exactInteger(sums[t]) * exactInteger(sums[t - lag]);
    };
    for (std::size_t lag = 0; lag < frames; ++lag) {
        WideSum numerator, denominator;
        double ratioSum = 0.0;
        std::size_t count = 0;
        Int128 m, d;
        for (std::size_t t = lag; t < frames; ++t) {
            pair(t, lag, m, d);
            numerator.add(m), denominator.add(d);
            if (d != 0) ratioSum += wideToDouble(m) / wideToDouble(d), ++count;
        }
        if (denominator.zero() || count == 0) {
            g2Row[lag] = denominator.zero() ? nan : numerator.toDouble() / denominator.toDouble();
            errRow[lag] = nan;
            continue;
        }
        const double mean = ratioSum / static_cast<double>(count);
        double squares = 0.0;
        for (std::size_t t = lag; t < frames; ++t) {
            pair(t, lag, m, d);
            if (d == 0) continue;
            const double r = wideToDouble(m) / wideToDouble(d) - mean;
            squares += r * r;
        }
        const double c = static_cast<double>(count);
        g2Row[lag] = numerator.toDouble() / denominator.toDouble();
        errRow[lag] = std::sqrt(squares / c) / std::sqrt(c);
    }
}

// Float data: sums in double.
template <class GramAt>
void lagStatisticsFloat(std::size_t frames, std::int64_t pixels, const std::vector<double>& sums,
                        GramAt&& gramAt, double* g2Row, double* errRow) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double n = static_cast<double>(pixels);
    for (std::size_t lag = 0; lag < frames; ++lag) {
        // First pass: sum of N_t, sum of S_t S'_t, mean of r_t = n N_t/(S_t S'_t).
        double numerator = 0.0, denominator = 0.0, ratioSum = 0.0;
        std::size_t count = 0;
        for (std::size_t t = lag; t < frames; ++t) {
            const double gram = static_cast<double>(gramAt(t, t - lag));
            const double product = sums[t] * sums[t - lag];
            numerator += gram;
            denominator += product;
            if (product != 0.0) ratioSum += n * gram / product, ++count;
        }
        if (denominator == 0.0 || count == 0) {
            g2Row[lag] = denominator == 0.0 ? nan : numerator * n / denominator;
            errRow[lag] = nan;
            continue;
        }
        // Second pass: population variance of r_t about its mean.
        const double mean = ratioSum / static_cast<double>(count);
        double squares = 0.0;
        for (std::size_t t = lag; t < frames; ++t) {
            const double product = sums[t] * sums[t - lag];
            if (product == 0.0) continue;
            const double d = n * static_cast<double>(gramAt(t, t - lag)) / product - mean;
            squares += d * d;
        }
        const double c = static_cast<double>(count);
        g2Row[lag] = numerator * n / denominator;
        errRow[lag] = std::sqrt(squares / c) / std::sqrt(c);
    }
}

} // namespace detail

template <class Sum, class GramAt>
void lagStatistics(std::size_t frames, std::int64_t pixels, const std::vector<Sum>& sums,
                   bool integerData, GramAt&& gramAt, double* g2Row, double* errRow) {
    if (integerData) return detail::lagStatisticsExact(frames, pixels, sums, gramAt, g2Row, errRow);
    if constexpr (std::is_floating_point_v<Sum>)
        detail::lagStatisticsFloat(frames, pixels, sums, gramAt, g2Row, errRow);
}

template <class GramAt>
std::vector<float> twotimeMap(std::size_t frames, std::int64_t pixels,
                              const std::vector<double>& sums, GramAt&& gramAt) {
    std::vector<float> map(frames * frames);
    const double n = static_cast<double>(pixels);
    for (std::size_t t1 = 0; t1 < frames; ++t1)
        for (std::size_t t2 = 0; t2 <= t1; ++t2) {
            const double product = sums[t1] * sums[t2];
            const double c = product == 0.0 ? std::numeric_limits<double>::quiet_NaN()
                                            : n * static_cast<double>(gramAt(t1, t2)) / product;
            map[t1 * frames + t2] = map[t2 * frames + t1] = static_cast<float>(c);
        }
    return map;
}

} // namespace clscope::xpcs
