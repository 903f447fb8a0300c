#include "gpu/xpcs/device_fold.hpp"

#include "gpu/xpcs/runner.hpp"

#include <bit>
#include <stdexcept>

namespace clscope::xpcs {

namespace {
constexpr std::size_t stateWords = 8; // a (bin, lag)'s statistics (xpcs_multitau_fold.cl)
constexpr std::size_t foldGroup = 64; // MTF_WG
} // namespace

DeviceFold::DeviceFold(ClSession& s, const Bins& bins, int channels, const ProgramRecipe& recipe,
                       const TunableValues& values)
    : s_(s), bins_(bins.count()), c_(channels) {
    if (bins_ == 0) throw std::logic_error("xpcs multi-tau: a fold without bins");
    pixels_ = s.allocate(bins_ * 8, "multi-tau fold: pixels a bin", CL_MEM_READ_ONLY);
    s.upload(pixels_, bins.pixelCounts.data(), bins_ * 8, "multi-tau fold: pixels a bin");
    fold_ = s.kernel(recipe, values, "mt_fold");
}

DeviceFold::Level& DeviceFold::level(std::size_t k) {
    while (levels_.size() <= k) {
        Level& l = levels_.emplace_back();
        const auto lags = std::size_t(multitauLagCount(int(levels_.size() - 1), c_));
        const std::size_t stateBytes = bins_ * lags * stateWords * 8;
        const std::size_t ringBytes = bins_ * std::size_t(c_) * 8;
        l.state = s_.allocate(stateBytes, "multi-tau fold: statistics");
        s_.fill(l.state, stateBytes, "multi-tau fold: statistics");
        for (cl::Buffer& ring : l.ring) {
            ring = s_.allocate(ringBytes, "multi-tau fold: frame sums before");
            s_.fill(ring, ringBytes, "multi-tau fold: frame sums before");
        }
    }
    return levels_[k];
}

void DeviceFold::queue(const std::vector<RowsAt>& rows, const cl::Buffer& sums,
                       const cl::Buffer& products) {
    for (const RowsAt& r : rows) {
        if (r.count == 0) continue;
        Level& l = level(std::size_t(r.level));
        if (r.first != l.rows) throw std::logic_error("xpcs multi-tau: a level's rows out of order");
        const int lags = multitauLagCount(r.level, c_), lag0 = multitauFirstLag(r.level, c_);
        setArgs(fold_, sums, cl_long(r.sumsAt), products, cl_long(r.prodsAt), cl_long(r.first),
                int(r.count), int(bins_), lags, lag0, c_, pixels_, l.ring[l.parity],
                l.ring[1 - l.parity], l.state);
        s_.launch(fold_, "xpcs multi-tau fold",
                  {{foldGroup * std::size_t(lags) * bins_, 1}, {foldGroup, 1}});
        l.parity = 1 - l.parity, l.rows += r.count;
    }
}

void DeviceFold::into(MultitauMerge& merge) {
    for (std::size_t k = 0; k < levels_.size(); ++k) {
        const auto lags = std::size_t(multitauLagCount(int(k), c_));
        std::vector<std::uint64_t> words(bins_ * lags * stateWords);
        s_.download(levels_[k].state, words.data(), words.size() * 8,
                    "multi-tau fold: statistics");
        std::vector<FoldedLag> folded(bins_ * lags);
        for (std::size_t i = 0; i < folded.size(); ++i) {
            const std::uint64_t* w = words.data() + i * stateWords;
            const auto wide = [](std::uint64_t lo, std::uint64_t hi) {
                return static_cast<Int128>((static_cast<UInt128>(hi) << 64) | lo);
            };
            FoldedLag& f = folded[i];
            f.numerator = wide(w[0], w[1]), f.denominator = wide(w[2], w[3]);
            f.pairs = w[4], f.nonzero = w[5];
            f.mean = std::bit_cast<double>(w[6]), f.m2 = std::bit_cast<double>(w[7]);
        }
        merge.setFolded(int(k), levels_[k].rows, folded);
    }
}

} // namespace clscope::xpcs
