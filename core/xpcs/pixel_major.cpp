#include "core/xpcs/pixel_major.hpp"

#include "core/clock.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>

namespace clscope::xpcs {

namespace {

// The labelled, non-zero entries in the order read (frames ascending): position, frame, count.
struct Held {
    std::vector<std::int32_t> position, frame;
    std::vector<std::uint32_t> count;

    void reserve(std::size_t n) { position.reserve(n), frame.reserve(n), count.reserve(n); }
};

// The block's labelled, non-zero entries (its frame 0 the series' `t`) into `held`, each
// position's number of them into perPosition[position + 2].
void keep(const SparseBlock& block, std::int32_t t, const std::vector<std::int32_t>& positions,
          Held& held, std::vector<std::int64_t>& perPosition) {
    for (std::size_t f = 0; f < block.frames(); ++f, ++t)
        for (auto i = std::size_t(block.ptr[f]); i < std::size_t(block.ptr[f + 1]); ++i) {
            const std::int32_t at = positions[std::size_t(block.pixel[i])];
            if (at < 0 || block.count[i] == 0) continue;
            held.position.push_back(at), held.frame.push_back(t);
            held.count.push_back(block.count[i]);
            ++perPosition[std::size_t(at) + 2];
        }
}

// Every block read into `held`; out.first holds each position's number at [p + 2].
Held readAll(const Bins& bins, const FrameBlocks& frames, const Progress& progress,
             PixelMajor& out) {
    const std::vector<std::int32_t> positions = positionsOf(bins, frames.height() * frames.width());
    out.first.assign(bins.pixelIndex.size() + 2, 0);
    Held held;
    std::int32_t t = 0;
    out.read = forEachSparseBlock(frames, progress, [&](const SparseBlock& block) {
        if (t == 0) // room for the series at the first block's entries a frame
            held.reserve(block.entries() / block.frames() * frames.frameCount() * 9 / 8);
        keep(block, t, positions, held, out.first);
        t += static_cast<std::int32_t>(block.frames());
    });
    return held;
}

// `held` by position (a counting sort, stable: each position's frames stay ascending). The
// counts at [p + 2] summed make [p + 1] position p's start, its cursor while placing, after
// which it is p + 1's start: out.first as a PixelMajor holds it.
void sortByPosition(const Held& held, PixelMajor& out) {
    std::partial_sum(out.first.begin(), out.first.end(), out.first.begin());
    out.frame.resize(held.frame.size()), out.count.resize(held.count.size());
    for (std::size_t i = 0; i < held.position.size(); ++i) {
        const auto at = std::size_t(out.first[std::size_t(held.position[i]) + 1]++);
        out.frame[at] = held.frame[i], out.count[at] = held.count[i];
    }
    out.first.pop_back();
}

// A position's entries of one frame summed in place (as stored), m.largest the largest sum.
// Returns the earliest frame where a sum passes `largest`, -1 where none does.
std::int64_t mergeSameFrame(PixelMajor& m, std::uint64_t largest) {
    std::int64_t beyond = -1, from = 0, n = 0;
    for (std::size_t p = 0; p + 1 < m.first.size(); ++p) {
        const std::int64_t to = m.first[p + 1], start = n;
        m.first[p] = n;
        for (std::int64_t i = from; i < to; ++i) {
            if (n > start && m.frame[std::size_t(n - 1)] == m.frame[std::size_t(i)]) {
                const std::uint64_t sum =
                    std::uint64_t(m.count[std::size_t(n - 1)]) + m.count[std::size_t(i)];
                if (sum > largest && (beyond < 0 || m.frame[std::size_t(i)] < beyond))
                    beyond = m.frame[std::size_t(i)];
                m.count[std::size_t(n - 1)] = static_cast<std::uint32_t>(sum);
                m.largest = std::max(m.largest, sum);
            } else {
                m.frame[std::size_t(n)] = m.frame[std::size_t(i)];
                m.count[std::size_t(n++)] = m.count[std::size_t(i)];
                m.largest = std::max<std::uint64_t>(m.largest, m.count[std::size_t(i)]);
            }
        }
        from = to;
    }
    m.first.back() = n;
    m.frame.resize(std::size_t(n)), m.count.resize(std::size_t(n));
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

PixelMajor pixelMajorOf(const Bins& bins, const FrameBlocks& frames, const Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    PixelMajor out;
    const Held held = readAll(bins, frames, progress, out);
    out.readMs = msSince(start);
    const auto sorting = std::chrono::steady_clock::now();
    sortByPosition(held, out);
    if (const std::int64_t t = mergeSameFrame(out, dtypeLargest(frames.dtype())); t >= 0)
        refuseFrame(bins, frames, std::size_t(t));
    out.sortMs = msSince(sorting);
    return out;
}

} // namespace clscope::xpcs
