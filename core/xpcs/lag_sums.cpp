#include "core/xpcs/lag_sums.hpp"

#include "core/errors.hpp"

#include <map>
#include <stdexcept>

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
    std::vector<LagSums> out(r.binCount() * r.frames);
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        std::map<int, std::vector<double>> levels; // the bin's series of each level, once
        for (std::size_t j = 0; j < r.frames; ++j) {
            const LagAt at = lagAt(r, j);
            auto it = levels.find(at.level);
            if (it == levels.end()) it = levels.emplace(at.level, sums.level(b, at.level)).first;
            out[b * r.frames + j] = sumsAtLag(it->second, at.lag);
        }
    }
    return out;
}

} // namespace clscope::xpcs
