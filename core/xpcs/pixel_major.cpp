#include "core/xpcs/pixel_major.hpp"

#include "core/clock.hpp"
#include "core/range_pool.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace clscope::xpcs {

namespace {

// The series' entries as stored, frames ascending: frame t's are [ptr[t], ptr[t + 1]).
// `classify` turns each pixel into its position, -1 where the entry is left out.
struct Stored {
    std::vector<std::int64_t> ptr{0};
    DefaultInitVector<std::int32_t> pixel;
    DefaultInitVector<std::uint32_t> count;
};

// The labelled non-zero entries grouped by bucket of positions (bucket k: positions from
// k << shift), the pieces in order within each bucket, so a position's frames still ascend. Not
// zeroed: `scatter` writes each place first, its pages faulted in on the pool's threads.
struct Bucketed {
    DefaultInitVector<std::int32_t> position, frame;
    DefaultInitVector<std::uint32_t> count;
};

// How the work is cut: `pieces` ranges of the stored entries (read order), `buckets` ranges of
// 2^shift positions. at[q * buckets + k]: piece q's entries in bucket k, then where they go.
struct Plan {
    std::size_t entries = 0, positions = 0, pieces = 1, buckets = 1, shift = 12, threads = 1;
    std::vector<std::int64_t> at, bucketStart; // bucketStart: buckets + 1

    std::size_t pieceBegin(std::size_t q) const { return entries * q / pieces; }
    std::size_t firstPosition(std::size_t k) const { return std::min(positions, k << shift); }
};

// A bucket's largest count once a frame's counts of a pixel are summed, and the earliest frame
// where such a sum passes the count type (-1: none).
struct Merged {
    std::uint64_t largest = 0;
    std::int64_t beyond = -1;
};

constexpr std::size_t pieceEntries = 16384, mostPieces = 64, mostBuckets = 1024;

// fn(i) for each i in [0, n) on at most `threads` of the process's pool (core/range_pool.hpp),
// one index a piece (taken in turn) where every thread of the pool may work.
void forEachIndex(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& fn) {
    const std::size_t all = std::max(1u, std::thread::hardware_concurrency());
    parallelRanges(n, threads >= all ? n : std::min(n, threads),
                   [&](std::size_t begin, std::size_t end) {
                       for (std::size_t i = begin; i < end; ++i)
                           fn(i);
                   });
}

// Every block of `frames` appended to `s`; returns the entries read.
std::uint64_t readStored(const FrameBlocks& frames, const Progress& progress, Stored& s) {
    s.ptr.reserve(frames.frameCount() + 1);
    return forEachSparseBlock(frames, progress, [&](const SparseBlock& block) {
        if (s.ptr.size() == 1) { // room for the series at the first block's entries a frame
            const std::size_t n = block.entries() / block.frames() * frames.frameCount() * 9 / 8;
            s.pixel.reserve(n), s.count.reserve(n);
        }
        const auto a = std::size_t(block.ptr.front()), b = std::size_t(block.ptr.back());
        const std::int64_t base = s.ptr.back() - block.ptr.front();
        for (std::size_t f = 0; f < block.frames(); ++f)
            s.ptr.push_back(base + block.ptr[f + 1]);
        s.pixel.insert(s.pixel.end(), block.pixel.begin() + a, block.pixel.begin() + b);
        s.count.insert(s.count.end(), block.count.begin() + a, block.count.begin() + b);
    });
}

Plan planFor(std::size_t entries, std::size_t positions, std::size_t threads) {
    Plan plan;
    plan.entries = entries, plan.positions = positions;
    plan.pieces = pixelMajorPieces(entries);
    while ((positions >> plan.shift) >= mostBuckets)
        ++plan.shift;
    plan.buckets =
        std::max<std::size_t>((positions + (std::size_t(1) << plan.shift) - 1) >> plan.shift, 1);
    plan.threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    plan.at.assign(plan.pieces * plan.buckets, 0);
    plan.bucketStart.assign(plan.buckets + 1, 0);
    return plan;
}

// Piece q's entries: each pixel turned into its position (-1: unlabelled or a zero count),
// counted by bucket.
void classify(Stored& s, const std::vector<std::int32_t>& positions, Plan& plan, std::size_t q) {
    std::int64_t* n = plan.at.data() + q * plan.buckets;
    for (std::size_t i = plan.pieceBegin(q); i < plan.pieceBegin(q + 1); ++i) {
        const std::int32_t at = s.count[i] ? positions[std::size_t(s.pixel[i])] : -1;
        s.pixel[i] = at;
        if (at >= 0) ++n[std::size_t(at) >> plan.shift];
    }
}

// plan.at from counts to each piece's first place in each bucket: buckets in order, pieces in
// order within a bucket (what keeps the sort stable); bucketStart where each bucket begins.
void placePieces(Plan& plan) {
    std::int64_t next = 0;
    for (std::size_t k = 0; k < plan.buckets; ++k) {
        plan.bucketStart[k] = next;
        for (std::size_t q = 0; q < plan.pieces; ++q)
            next += std::exchange(plan.at[q * plan.buckets + k], next);
    }
    plan.bucketStart.back() = next;
}

// Piece q's kept entries to their places in `b` (its cursors in plan.at).
void scatter(const Stored& s, Plan& plan, std::size_t q, Bucketed& b) {
    std::int64_t* cursor = plan.at.data() + q * plan.buckets;
    std::int32_t *position = b.position.data(), *frame = b.frame.data();
    std::uint32_t* count = b.count.data();
    const std::size_t begin = plan.pieceBegin(q), end = plan.pieceBegin(q + 1);
    auto t = std::size_t(std::upper_bound(s.ptr.begin(), s.ptr.end(), std::int64_t(begin)) -
                         s.ptr.begin() - 1);
    for (std::size_t i = begin; i < end; ++i) {
        while (std::size_t(s.ptr[t + 1]) <= i)
            ++t;
        if (s.pixel[i] < 0) continue;
        const auto o = std::size_t(cursor[std::size_t(s.pixel[i]) >> plan.shift]++);
        position[o] = s.pixel[i], frame[o] = static_cast<std::int32_t>(t), count[o] = s.count[i];
    }
}

// The stored entries' kept ones by bucket, the pieces classified and scattered on the pool.
Bucketed bucketsOf(Stored& s, const std::vector<std::int32_t>& positions, Plan& plan) {
    forEachIndex(plan.pieces, plan.threads,
                 [&](std::size_t q) { classify(s, positions, plan, q); });
    placePieces(plan);
    Bucketed b;
    const auto kept = std::size_t(plan.bucketStart.back());
    b.position.resize(kept), b.frame.resize(kept), b.count.resize(kept);
    forEachIndex(plan.pieces, plan.threads, [&](std::size_t q) { scatter(s, plan, q, b); });
    return b;
}

// Bucket k's entries counted by position into first[p] (zeroed here, on the pool's thread), a
// pixel's entries of one frame once (adjacent in its frames, to be summed); returns the count.
std::int64_t countBucket(const Bucketed& b, const Plan& plan, std::size_t k,
                         DefaultInitVector<std::int64_t>& first) {
    const std::size_t p0 = plan.firstPosition(k), p1 = plan.firstPosition(k + 1);
    std::fill(first.begin() + std::ptrdiff_t(p0), first.begin() + std::ptrdiff_t(p1), 0);
    std::vector<std::int32_t> last(p1 - p0, -1); // each position's last frame
    std::int64_t n = 0;
    for (auto i = std::size_t(plan.bucketStart[k]); i < std::size_t(plan.bucketStart[k + 1]); ++i) {
        const std::size_t p = std::size_t(b.position[i]) - p0;
        if (last[p] == b.frame[i]) continue;
        last[p] = b.frame[i], ++first[p0 + p], ++n;
    }
    return n;
}

// Bucket k's entries placed by position from `start` (first[p]: each position's count, then its
// start), its positions' frames ascending as in `b`, a pixel's counts of one frame summed; sums
// past `largest` give Merged::beyond.
Merged placeBucket(const Bucketed& b, const Plan& plan, std::size_t k, std::int64_t start,
                   std::uint64_t largest, DefaultInitVector<std::int64_t>& first,
                   std::int32_t* frame, std::uint32_t* count) {
    const std::size_t p0 = plan.firstPosition(k), p1 = plan.firstPosition(k + 1);
    for (std::size_t p = p0; p < p1; ++p)
        start += std::exchange(first[p], start);
    std::vector<std::int64_t> cursor(first.begin() + std::ptrdiff_t(p0),
                                     first.begin() + std::ptrdiff_t(p1));
    Merged m;
    for (auto i = std::size_t(plan.bucketStart[k]); i < std::size_t(plan.bucketStart[k + 1]); ++i) {
        const std::size_t p = std::size_t(b.position[i]) - p0;
        const auto o = std::size_t(cursor[p]);
        if (std::int64_t(o) > first[p0 + p] && frame[o - 1] == b.frame[i]) {
            const std::uint64_t sum = std::uint64_t(count[o - 1]) + b.count[i];
            if (sum > largest && (m.beyond < 0 || b.frame[i] < m.beyond)) m.beyond = b.frame[i];
            count[o - 1] = static_cast<std::uint32_t>(sum);
            m.largest = std::max(m.largest, sum);
        } else {
            frame[o] = b.frame[i], count[o] = b.count[i], ++cursor[p];
            m.largest = std::max<std::uint64_t>(m.largest, b.count[i]);
        }
    }
    return m;
}

// `b` by position (a counting sort within each bucket, stable), a frame's same-pixel entries
// summed, into out's first, frame and count: the stored columns, no longer needed, hold them.
// Returns the earliest frame where a sum passes `largest`, -1 where none does.
std::int64_t sortByPosition(const Bucketed& b, Stored& s, const Plan& plan, std::uint64_t largest,
                            PixelMajor& out) {
    out.first.resize(plan.positions + 1);
    std::vector<std::int64_t> start(plan.buckets + 1, 0);
    forEachIndex(plan.buckets, plan.threads,
                 [&](std::size_t k) { start[k + 1] = countBucket(b, plan, k, out.first); });
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<Merged> merged(plan.buckets);
    forEachIndex(plan.buckets, plan.threads, [&](std::size_t k) {
        merged[k] =
            placeBucket(b, plan, k, start[k], largest, out.first, s.pixel.data(), s.count.data());
    });
    out.first.back() = start.back();
    out.frame = std::move(s.pixel), out.count = std::move(s.count);
    out.frame.resize(std::size_t(start.back())), out.count.resize(std::size_t(start.back()));
    std::int64_t beyond = -1;
    for (const Merged& m : merged) {
        out.largest = std::max(out.largest, m.largest);
        if (m.beyond >= 0 && (beyond < 0 || m.beyond < beyond)) beyond = m.beyond;
    }
    return beyond;
}

// Frame t's refusal, as SparseRows::row words it (its entries read again).
[[noreturn]] void refuseFrame(const Bins& bins, const FrameBlocks& frames, std::size_t t) {
    const SparseRows rows(bins, frames.height() * frames.width(), frames.dtype());
    std::vector<SparseEntry> row;
    rows.row(sparseBlockOf(frames, t, 1), 0, row);
    throw std::logic_error("xpcs sparse-pairs: frame " + std::to_string(t) +
                           " sums beyond its type, its row does not");
}

} // namespace

std::size_t pixelMajorPieces(std::size_t entries) {
    return std::clamp<std::size_t>(entries / pieceEntries, 1, mostPieces);
}

PixelMajor pixelMajorOf(const Bins& bins, const FrameBlocks& frames, const Progress& progress,
                        std::size_t threads) {
    const auto start = std::chrono::steady_clock::now();
    PixelMajor out;
    Stored stored;
    out.read = readStored(frames, progress, stored);
    Plan plan = planFor(stored.pixel.size(), bins.pixelIndex.size(), threads);
    Bucketed b = bucketsOf(stored, positionsOf(bins, frames.height() * frames.width()), plan);
    out.readMs = msSince(start);
    const auto sorting = std::chrono::steady_clock::now();
    const std::int64_t t = sortByPosition(b, stored, plan, dtypeLargest(frames.dtype()), out);
    if (t >= 0) refuseFrame(bins, frames, std::size_t(t));
    out.sortMs = msSince(sorting);
    return out;
}

} // namespace clscope::xpcs
