#include "gpu/xpcs/multitau_merge.hpp"

#include "core/clock.hpp"
#include "core/range_pool.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <stdexcept>

namespace clscope::xpcs {

namespace {

// n (lo, hi) word pairs as 128-bit integers.
std::vector<Int128> joinWords(const std::int64_t* words, std::size_t n) {
    std::vector<Int128> out(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = wideOfWords(static_cast<std::uint64_t>(words[2 * i]),
                             static_cast<std::uint64_t>(words[2 * i + 1]));
    return out;
}

// to += from, n values of one word (wrapping as the device's sums would not: they fit), or of
// two (lo, hi) words with the carry.
void addWords(std::int64_t* to, const std::int64_t* from, std::size_t words, bool wide) {
    if (!wide) {
        for (std::size_t i = 0; i < words; ++i)
            to[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(to[i]) +
                                              static_cast<std::uint64_t>(from[i]));
        return;
    }
    for (std::size_t i = 0; i + 1 < words; i += 2) {
        const auto a = static_cast<std::uint64_t>(to[i]), b = static_cast<std::uint64_t>(from[i]);
        const std::uint64_t lo = a + b, carry = lo < a ? 1 : 0;
        to[i] = static_cast<std::int64_t>(lo);
        to[i + 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(to[i + 1]) +
                                              static_cast<std::uint64_t>(from[i + 1]) + carry);
    }
}

} // namespace

// The parts' sums added into the first part's memory, over the pool's threads for a large
// block (a GPU's: megabytes of sums a block), each range of every part at once.
void MultitauMerge::addParts(Pending& p) {
    const std::size_t step = p.wide ? 2 : 1;
    for (const bool products : {false, true}) {
        const auto at = [&](const BlockSums& b) { return products ? b.products : b.sums; };
        const BlockSums& first = p.parts[0];
        const std::size_t values = (products ? first.productWords : first.sumWords) / step;
        parallelRanges(values, values < (std::size_t(1) << 18) ? 1 : 8,
                       [&](std::size_t begin, std::size_t end) {
                           for (std::size_t k = 1; k < p.parts.size(); ++k)
                               addWords(at(first) + begin * step, at(p.parts[k]) + begin * step,
                                        (end - begin) * step, p.wide);
                       });
    }
}

void waitFoldTimed(std::future<double>& folding, TimingStats& timings, const std::string& prefix) {
    if (!folding.valid()) return;
    const auto start = std::chrono::steady_clock::now();
    const double folded = folding.get();
    timings.add(prefix + " fold (host thread)", folded);
    timings.add(prefix + " wait for the fold (host)", msSince(start));
}

Bins binsWithin(const Bins& bins, std::size_t from, std::size_t to) {
    Bins out;
    out.labels = bins.labels;
    out.offsets.push_back(0);
    for (std::size_t b = 0; b < bins.count(); ++b) {
        for (auto i = bins.offsets[b]; i < bins.offsets[b + 1]; ++i) {
            const auto p = static_cast<std::size_t>(bins.pixelIndex[std::size_t(i)]);
            if (p >= from && p < to) out.pixelIndex.push_back(static_cast<std::int32_t>(p - from));
        }
        out.offsets.push_back(static_cast<std::int64_t>(out.pixelIndex.size()));
        out.pixelCounts.push_back(out.offsets[b + 1] - out.offsets[b]);
    }
    return out;
}

MultitauMerge::MultitauMerge(Bins bins, int channels, std::size_t parts)
    : bins_(std::move(bins)), channels_(channels), parts_(std::max<std::size_t>(parts, 1)),
      stats_(bins_, channels, true) {
    if (!bins_.pixelCounts.empty())
        most_ = *std::max_element(bins_.pixelCounts.begin(), bins_.pixelCounts.end());
    if (parts_ > 1) folder_ = std::thread([this] { foldLoop(); });
}

MultitauMerge::~MultitauMerge() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        changed_.notify_all();
    }
    if (folder_.joinable()) folder_.join();
}

std::size_t MultitauMerge::agreeBlock(std::size_t proposed) {
    std::lock_guard lock(mutex_);
    if (block_ == 0) block_ = proposed;
    return block_;
}

void MultitauMerge::throwIfFailed() const {
    if (failed_) std::rethrow_exception(failed_);
}

void MultitauMerge::add(const BlockSums& block, bool wide) {
    if (parts_ == 1) { // one device: folded from its read-back memory, no copy
        std::lock_guard order(folding_);
        fold(block.rows, block.sums, block.products, wide);
        return;
    }
    std::lock_guard lock(mutex_);
    throwIfFailed();
    Pending& p = pending_[block.index];
    if (!p.parts.empty() &&
        (p.parts[0].sumWords != block.sumWords || p.parts[0].productWords != block.productWords))
        throw std::logic_error("xpcs multitau: the parts of a split gave blocks of other shapes");
    p.parts.push_back(block), p.wide = wide;
    if (p.parts.size() < parts_) return;
    p.complete = true;
    changed_.notify_all(); // the fold thread
}

void MultitauMerge::waitFolded(std::size_t index) {
    if (parts_ == 1) return;
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || next_ > index; });
    throwIfFailed();
}

// A split's fold thread: each complete block in order until every part is done and folded,
// the merge fails or is destroyed. A fold's error fails the merge.
void MultitauMerge::foldLoop() {
    try {
        while (foldNext()) {
        }
    } catch (...) {
        fail(std::current_exception());
    }
}

// Waits for the next block to be complete and folds it; false when there is nothing more.
bool MultitauMerge::foldNext() {
    std::map<std::size_t, Pending>::node_type node;
    {
        std::unique_lock lock(mutex_);
        const auto ready = [&] {
            const auto it = pending_.find(next_);
            return it != pending_.end() && it->second.complete;
        };
        changed_.wait(lock, [&] { return failed_ || stopping_ || ready() || done_ == parts_; });
        if (failed_ || stopping_) return false;
        if (!ready()) {
            if (pending_.empty()) return false; // every part done, every block folded
            throw std::logic_error("xpcs multitau: a block of the split was not folded");
        }
        node = pending_.extract(next_);
    }
    Pending& p = node.mapped();
    addParts(p);
    {
        std::lock_guard order(folding_);
        fold(p.parts[0].rows, p.parts[0].sums, p.parts[0].products, p.wide);
    }
    std::lock_guard lock(mutex_);
    ++next_;
    changed_.notify_all();
    return true;
}

// A block's per-row sums (in level order) into the statistics: all levels' rows at once
// (one spread of the bins over threads), 32-bit data's word pairs joined first.
void MultitauMerge::fold(const std::vector<RowsAt>& rows, const std::int64_t* sums,
                         const std::int64_t* products, bool wide) {
    const std::size_t nb = bins_.count();
    std::vector<StatsRows<std::int64_t>> narrow;
    std::vector<StatsRows<Int128>> wideRows;
    std::deque<std::vector<Int128>> joined;
    for (const RowsAt& r : rows) {
        const std::int64_t* s = sums + r.sumsAt;
        const std::int64_t* p = products + r.prodsAt;
        if (!wide) {
            narrow.push_back({r.level, r.first, r.count, s, p});
            continue;
        }
        const std::size_t lags = std::size_t(multitauLagCount(r.level, channels_));
        const Int128* s2 = joined.emplace_back(joinWords(s, r.count * nb)).data();
        const Int128* p2 = joined.emplace_back(joinWords(p, r.count * nb * lags)).data();
        wideRows.push_back({r.level, r.first, r.count, s2, p2});
    }
    stats_.setThreads(threads_ == 0 ? 0 : threads_ * parts_);
    if (!narrow.empty()) stats_.addRows(narrow);
    if (!wideRows.empty()) stats_.addRows(wideRows);
}

void MultitauMerge::partDone() {
    std::lock_guard lock(mutex_);
    ++done_;
    changed_.notify_all();
}

void MultitauMerge::fail(std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    if (!failed_) failed_ = std::move(error);
    changed_.notify_all();
}

void MultitauMerge::setFolded(int level, std::size_t rows, const std::vector<FoldedLag>& lags) {
    if (parts_ != 1) throw std::logic_error("xpcs multi-tau: a device's fold in a split");
    std::lock_guard order(folding_);
    stats_.setFolded(level, rows, lags);
}

Result MultitauMerge::finish(std::size_t frames, const Params& params) {
    {
        std::unique_lock lock(mutex_);
        // Every part done and, in a split, every block they added folded.
        changed_.wait(lock, [&] { return failed_ || (done_ == parts_ && pending_.empty()); });
        throwIfFailed();
    }
    if (folder_.joinable()) folder_.join();
    std::lock_guard order(folding_);
    return stats_.finish(bins_, frames, params);
}

} // namespace clscope::xpcs
