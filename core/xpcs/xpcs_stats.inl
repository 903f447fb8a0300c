// Template bodies of xpcs.hpp: lag statistics and two-time maps from a bin's Gram matrix.
#pragma once
#include <cmath>
#include <limits>

namespace clscope::xpcs {

template <class GramAt>
void lagStatistics(std::size_t frames, std::int64_t pixels, const std::vector<double>& sums,
                   GramAt&& gramAt, double* g2Row, double* errRow) {
    using Sum = decltype(gramAt(std::size_t{0}, std::size_t{0}));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double n = static_cast<double>(pixels);
    for (std::size_t lag = 0; lag < frames; ++lag) {
        // First pass: sum of N_t (exact in Sum), sum of S_t S'_t, mean of r_t = n N_t/(S_t S'_t).
        Sum numerator{};
        double denominator = 0.0, ratioSum = 0.0;
        std::size_t count = 0;
        for (std::size_t t = lag; t < frames; ++t) {
            const Sum gram = gramAt(t, t - lag);
            const double product = sums[t] * sums[t - lag];
            numerator += gram;
            denominator += product;
            if (product != 0.0) ratioSum += n * static_cast<double>(gram) / product, ++count;
        }
        if (denominator == 0.0 || count == 0) {
            g2Row[lag] = denominator == 0.0 ? nan : static_cast<double>(numerator) * n / denominator;
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
        g2Row[lag] = static_cast<double>(numerator) * n / denominator;
        errRow[lag] = std::sqrt(squares / c) / std::sqrt(c);
    }
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
