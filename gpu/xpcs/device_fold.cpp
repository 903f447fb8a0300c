#include "gpu/xpcs/device_fold.hpp"

#include "gpu/xpcs/runner.hpp"

#include <bit>
#include <stdexcept>

namespace clscope::xpcs {

namespace {
constexpr std::size_t stateWords = 8; // a (bin, lag)'s statistics (xpcs_multitau_fold.cl)
constexpr std::size_t tableWords = 8; // a block's entry
constexpr std::size_t foldGroup = 64; // MTF_WG
} // namespace

DeviceFold::DeviceFold(ClSession& s, const Bins& bins, int channels, const ProgramRecipe& recipe,
                       const TunableValues& values)
    : s_(s), bins_(bins.count()), c_(channels) {
    if (bins_ == 0) throw std::logic_error("xpcs multi-tau: a fold without bins");
    pixels_ = s.allocate(bins_ * 8, "multi-tau fold: pixels a bin", CL_MEM_READ_ONLY);
    s.upload(pixels_, bins.pixelCounts.data(), bins_ * 8, "multi-tau fold: pixels a bin");
    fold_ = s.kernel(recipe, values, "mt_fold");
    hold(4); // more as levels come (a level: bins x C x 64 bytes, C x 16 of rings)
}

void DeviceFold::hold(std::size_t levels) {
    if (levels <= levels_) return;
    levels = std::max(levels, 2 * levels_);
    const std::size_t stateBytes = bins_ * std::size_t(c_) * stateWords * 8; // a level's
    const std::size_t ringBytes = 2 * bins_ * std::size_t(c_) * 8;
    cl::Buffer state = s_.allocate(levels * stateBytes, "multi-tau fold: statistics");
    cl::Buffer rings = s_.allocate(levels * ringBytes, "multi-tau fold: frame sums before");
    s_.copy(state_, 0, state, 0, levels_ * stateBytes, "multi-tau fold: statistics");
    s_.copy(rings_, 0, rings, 0, levels_ * ringBytes, "multi-tau fold: frame sums before");
    s_.fill(state, (levels - levels_) * stateBytes, "multi-tau fold: statistics",
            levels_ * stateBytes);
    s_.fill(rings, (levels - levels_) * ringBytes, "multi-tau fold: frame sums before",
            levels_ * ringBytes);
    state_ = state, rings_ = rings, levels_ = levels;
    rows_.resize(levels), parity_.resize(levels);
}

void DeviceFold::queue(const std::vector<RowsAt>& rows, const cl::Buffer& sums,
                       const cl::Buffer& products) {
    Table& table = tables_[blocks_++ % 2];
    if (table.written()) table.written.wait(); // its words were read before they change
    table.words.clear();
    std::size_t groups = 0;
    for (const RowsAt& r : rows) {
        if (r.count == 0) continue;
        const auto k = std::size_t(r.level);
        hold(k + 1);
        if (r.first != rows_[k])
            throw std::logic_error("xpcs multi-tau: a level's rows out of order");
        table.words.insert(table.words.end(),
                           {cl_long(r.sumsAt), cl_long(r.prodsAt), cl_long(r.first),
                            cl_long(r.count), cl_long(k), parity_[k], cl_long(groups), 0});
        groups += bins_ * std::size_t(multitauLagCount(r.level, c_));
        rows_[k] += r.count, parity_[k] = 1 - parity_[k];
    }
    if (groups == 0) return;
    const std::size_t bytes = table.words.size() * 8;
    if (!table.buffer() || table.buffer.getInfo<CL_MEM_SIZE>() < bytes)
        table.buffer = s_.allocate(std::max<std::size_t>(bytes, 64 * tableWords * 8),
                                   "multi-tau fold: rows", CL_MEM_READ_ONLY);
    s_.queue().enqueueWriteBuffer(table.buffer, CL_FALSE, 0, bytes, table.words.data(), nullptr,
                                  &table.written);
    s_.record(table.written, "multi-tau fold: rows");
    setArgs(fold_, sums, products, table.buffer, int(table.words.size() / tableWords), int(bins_),
            c_, pixels_, rings_, state_);
    s_.launch(fold_, "xpcs multi-tau fold", {{foldGroup * groups, 1}, {foldGroup, 1}});
}

void DeviceFold::into(MultitauMerge& merge) {
    const std::size_t perLevel = bins_ * std::size_t(c_);
    std::vector<std::uint64_t> words(levels_ * perLevel * stateWords);
    s_.download(state_, words.data(), words.size() * 8, "multi-tau fold: statistics");
    for (std::size_t k = 0; k < levels_ && rows_[k] > 0; ++k) {
        const auto lags = std::size_t(multitauLagCount(int(k), c_));
        std::vector<FoldedLag> folded(bins_ * lags);
        for (std::size_t b = 0; b < bins_; ++b)
            for (std::size_t j = 0; j < lags; ++j) {
                const std::uint64_t* w = words.data() + ((k * bins_ + b) * c_ + j) * stateWords;
                FoldedLag& f = folded[b * lags + j];
                f.numerator = wideOfWords(w[0], w[1]), f.denominator = wideOfWords(w[2], w[3]);
                f.pairs = w[4], f.nonzero = w[5];
                f.mean = std::bit_cast<double>(w[6]), f.m2 = std::bit_cast<double>(w[7]);
            }
        merge.setFolded(int(k), rows_[k], folded);
    }
}

} // namespace clscope::xpcs
