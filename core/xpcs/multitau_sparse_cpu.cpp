// The CPU design of sparse multi-tau: rows as entries (position in bin order, value) sorted by
// position. Level k keeps its last C rows; the newest row's frame sums come from its entries,
// its lag products from a merge with each earlier row, and a complete pair merges into the
// next level's row. Sums and products are exact (128-bit) and folded into MultitauStats as
// the dense CPU reference folds its own: the same numbers, so the same g2.
#include "core/xpcs/multitau_sparse.hpp"

#include "core/errors.hpp"
#include "core/xpcs/sparse_blocks.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>

namespace clscope::xpcs {

namespace {

using Row = std::vector<SparseEntry>;

// The entries of a and b, a position in both once with the sum of its values.
Row mergeRows(const Row& a, const Row& b) {
    Row out;
    out.reserve(a.size() + b.size());
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        if (j == b.size() || (i < a.size() && a[i].position < b[j].position)) {
            out.push_back(a[i++]);
        } else if (i == a.size() || b[j].position < a[i].position) {
            out.push_back(b[j++]);
        } else {
            out.push_back({a[i].position, a[i].value + b[j].value});
            ++i, ++j;
        }
    }
    return out;
}

class SparseLevels {
  public:
    SparseLevels(const Bins& bins, int channels, MultitauStats& stats)
        : c_(static_cast<std::size_t>(channels)), bins_(bins.count()), stats_(stats),
          binOf_(binOfPositions(bins)) {}

    void push(std::size_t k, Row row) {
        while (levels_.size() <= k)
            levels_.push_back(Level{0, std::vector<Row>(c_), {}, false});
        Level& l = levels_[k];
        l.ring[l.rows % c_] = row;
        addRow(k, l);
        ++l.rows;
        if (!l.pending) {
            l.half = std::move(row);
            l.pending = true;
            return;
        }
        l.pending = false;
        push(k + 1, mergeRows(l.half, row));
    }

  private:
    struct Level {
        std::size_t rows;
        std::vector<Row> ring; // row t at t % C
        Row half;              // the first row of an incomplete pair
        bool pending;
    };

    void addRow(std::size_t k, const Level& l) {
        const int lags = multitauLagCount(int(k), int(c_)),
                  lag0 = multitauFirstLag(int(k), int(c_));
        const std::size_t t = l.rows;
        const Row& now = l.ring[t % c_];
        sums_.assign(bins_, Int128{});
        products_.assign(bins_ * std::size_t(lags), Int128{});
        for (const SparseEntry& e : now)
            sums_[std::size_t(binOf_[std::size_t(e.position)])] += e.value;
        for (int j = 0; j < lags && std::size_t(lag0 + j) <= t; ++j)
            addProducts(now, l.ring[(t - std::size_t(lag0 + j)) % c_], j, lags);
        stats_.addRows<Int128>(static_cast<int>(k), t, 1, sums_.data(), products_.data());
    }

    // Σ now(p)·then(p) per bin over the positions in both rows, into lag j's products.
    void addProducts(const Row& now, const Row& then, int j, int lags) {
        forCommonPositions(now, then, [&](const SparseEntry& a, const SparseEntry& b) {
            const auto bin = std::size_t(binOf_[std::size_t(a.position)]);
            products_[bin * std::size_t(lags) + std::size_t(j)] +=
                Int128(a.value) * Int128(b.value);
        });
    }

    std::size_t c_, bins_;
    MultitauStats& stats_;
    std::vector<std::int32_t> binOf_; // position -> bin
    std::deque<Level> levels_;
    std::vector<Int128> sums_, products_;
};

} // namespace

std::string occupancyText(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g %%", 100 * fraction);
    return text;
}

void checkSparseInput(DType dtype, const std::string& variant) {
    if (dtype != DType::UInt8 && dtype != DType::UInt16 && dtype != DType::UInt32)
        throw UsageError("xpcs variant '" + variant +
                         "' cannot run this input: " + dtypeName(dtype) +
                         " frames; the sparse variants take unsigned integer counts (uint8, "
                         "uint16, uint32)");
}

Result correlateMultitauSparseCpu(const FrameBlocks& frames, const LabelMask& mask,
                                  const Params& params, const Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    checkSparseInput(frames.dtype(), "sparse-cpu");
    checkMultitau(frames.dtype(), frames.frameCount(), mask, params);
    const Bins bins = makeBins(mask);
    MultitauStats stats(bins, params.channels, true);
    SparseLevels levels(bins, params.channels, stats);
    const SparseRows rows(bins, frames.height() * frames.width(), frames.dtype());
    const std::size_t total = frames.frameCount();
    const std::uint64_t entries =
        rows.forEach(frames, progress, [&](const Row& row) { levels.push(0, row); });
    Result result = stats.finish(bins, total, params);
    stampHostRun(result, "sparse-cpu", "xpcs multitau sparse-cpu", start);
    result.entries = entries;
    return result;
}

} // namespace clscope::xpcs
