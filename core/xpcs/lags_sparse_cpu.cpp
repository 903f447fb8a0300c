// Dense lags on sparse frames on the host: the series' rows held (SparseRows gives each frame's
// labelled entries sorted by position in bin order, so a bin's entries of a row are one
// range), each bin's exact Gram matrix from merges of two rows, and the cpu reference's
// statistics on it (finishBinExact): the integer sums the dense cpu computes, folded the same.
#include "core/xpcs/lags_sparse.hpp"

#include "core/range_pool.hpp"
#include "core/xpcs/multitau_sparse.hpp"
#include "core/xpcs/sparse_blocks.hpp"

#include <algorithm>
#include <chrono>
#include <span>
#include <thread>

namespace clscope::xpcs {

namespace {

// The rows of a series, one after another, and where each starts.
class HeldRows {
  public:
    void add(const std::vector<SparseEntry>& row) {
        entries_.insert(entries_.end(), row.begin(), row.end());
        starts_.push_back(entries_.size());
    }
    std::size_t count() const { return starts_.size() - 1; }
    // Row t's entries at positions [first, last): one bin's.
    std::span<const SparseEntry> row(std::size_t t, std::int64_t first, std::int64_t last) const {
        const auto before = [](const SparseEntry& e, std::int64_t p) { return e.position < p; };
        const SparseEntry* begin = entries_.data() + starts_[t];
        const SparseEntry* end = entries_.data() + starts_[t + 1];
        const SparseEntry* from = std::lower_bound(begin, end, first, before);
        return {from, std::lower_bound(from, end, last, before)};
    }

  private:
    std::vector<SparseEntry> entries_;
    std::vector<std::size_t> starts_{0};
};

// Bin b's frame sums S_t and the lower triangle of its Gram matrix (t2 <= t1, T x T row-major),
// exact; rows t1 spread over the pool.
void binGram(const HeldRows& rows, const Bins& bins, std::size_t b, RangePool& pool,
             const Progress& progress, std::vector<Int128>& sums, std::vector<Int128>& gram) {
    const std::size_t frames = rows.count();
    std::vector<std::span<const SparseEntry>> of(frames);
    sums.assign(frames, 0);
    gram.assign(frames * frames, 0);
    for (std::size_t t = 0; t < frames; ++t) {
        of[t] = rows.row(t, bins.offsets[b], bins.offsets[b + 1]);
        for (const SparseEntry& e : of[t])
            sums[t] += e.value;
    }
    pool.run(frames, std::min<std::size_t>(frames, 1024), [&](std::size_t t0, std::size_t t1) {
        for (std::size_t t = t0; t < t1 && !progress.cancelled(); ++t)
            for (std::size_t u = 0; !of[t].empty() && u <= t; ++u) {
                Int128 n = 0;
                forCommonPositions(of[t], of[u], [&](const SparseEntry& x, const SparseEntry& y) {
                    n += Int128(x.value) * Int128(y.value);
                });
                gram[t * frames + u] = n;
            }
    });
    progress.checkCancel();
}

} // namespace

Result correlateLagsSparseCpu(const FrameBlocks& frames, const LabelMask& mask,
                              const Params& params, const Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    checkSparseInput(frames.dtype(), "sparse-cpu");
    const Bins bins = makeBins(mask);
    Result result = makeLagResult(bins, frames.frameCount(), params);
    // Reading: the first tenth of the progress; the bins the rest.
    const Progress reading([&](double f) { progress.report(0.1 * f); }, progress.cancelFlag());
    HeldRows rows;
    const SparseRows reader(bins, frames.height() * frames.width(), frames.dtype());
    const std::uint64_t entries = reader.forEach(
        frames, reading, [&](const std::vector<SparseEntry>& row) { rows.add(row); });
    RangePool pool(params.threads ? params.threads
                                  : std::max(1u, std::thread::hardware_concurrency()));
    std::vector<Int128> sums, gram;
    for (std::size_t b = 0; b < bins.count(); ++b) {
        binGram(rows, bins, b, pool, progress, sums, gram);
        finishBinExact(bins, b, sums, gram, result);
        progress.report(0.1 + 0.9 * double(b + 1) / double(bins.count()));
    }
    stampHostRun(result, "sparse-cpu", "xpcs sparse-cpu", start);
    result.entries = entries;
    return result;
}

} // namespace clscope::xpcs
