#include "core/xpcs/lag_sums.hpp"

#include "core/errors.hpp"
#include "core/range_pool.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <thread>

namespace clscope::xpcs {

LagAt lagAt(const Result& r, std::size_t j) {
    if (!r.multitau) return {0, j};
    const int k = r.levels[j];
    return {k, static_cast<std::size_t>(r.lagFrames[j] >> k)};
}

namespace {

LagSums sumsAtLag(const std::vector<double>& s, std::size_t m) {
    LagSums out;
    if (m >= s.size()) return out;
    long double later = 0, earlier = 0, products = 0;
    for (std::size_t t = m; t < s.size(); ++t) {
        later += s[t], earlier += s[t - m];
        products += static_cast<long double>(s[t]) * s[t - m];
    }
    out.pairs = static_cast<double>(s.size() - m);
    out.later = static_cast<double>(later), out.earlier = static_cast<double>(earlier);
    out.products = static_cast<double>(products);
    return out;
}

} // namespace

std::vector<LagSums> lagSums(const FrameSums& sums, const Result& r) {
    if (sums.labels != r.labels)
        throw std::logic_error("lagSums: the frame sums' bins are not the result's");
    std::vector<LagAt> lags;
    std::vector<std::map<int, std::vector<double>>> series(r.binCount()); // each bin's levels
    for (std::size_t j = 0; j < r.frames; ++j) {
        lags.push_back(lagAt(r, j));
        for (std::size_t b = 0; b < r.binCount(); ++b)
            if (!series[b].count(lags.back().level))
                series[b].emplace(lags.back().level, sums.level(b, lags.back().level));
    }
    // Every (bin, lag) on its own (a dense run's are O(T) each): spread over the cores.
    std::vector<LagSums> out(r.binCount() * r.frames);
    RangePool pool(std::max(1u, std::thread::hardware_concurrency()));
    pool.run(out.size(), std::min<std::size_t>(out.size(), 256),
             [&](std::size_t i0, std::size_t i1) {
                 for (std::size_t i = i0; i < i1; ++i) {
                     const LagAt& at = lags[i % r.frames];
                     out[i] = sumsAtLag(series[i / r.frames].at(at.level), at.lag);
                 }
             });
    return out;
}

} // namespace clscope::xpcs
