// SparseRings' input side (sparse_rings.hpp): a block's entries checked against the 64-bit
// bound of the lag products, then staged from host memory (a file's block) or taken where they
// are (a device block, FrameCompaction), and queued through the levels (sparse_rings.cpp).
#include "gpu/xpcs/sparse_rings.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/xpcs/multitau_sparse.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace clscope::xpcs {

bool SparseRings::fits(std::uint64_t frameTotal, std::size_t frames) {
    return frameTotal <= largestProductRoot / std::bit_floor(std::max<std::size_t>(frames, 1));
}

// The largest binned frame's counts and entries (a file's: every entry, labelled or not:
// bounds; a device block's: its labelled pixels) at each level, as the rings will bin them;
// UsageError before anything of the block runs where one could take a product out of range.
void SparseRings::checkTotals(const DeviceBlock& block) {
    if (block.frames() > block_) throw std::logic_error("xpcs sparse: a block beyond the rings");
    for (std::size_t f = 0; f < block.frames(); ++f) {
        std::uint64_t total = block.totals[f], entries = block.entries[f];
        for (std::size_t k = 0;; ++k) {
            if (total > largestProductRoot)
                throw UsageError("xpcs variant 'sparse' cannot run this input: frames binned by " +
                                 std::to_string(std::uint64_t(1) << k) + " hold " +
                                 std::to_string(total) +
                                 " counts; 64-bit lag products need at most " +
                                 std::to_string(largestProductRoot) + " (run sparse-cpu)");
            if (pending_.size() <= k) pending_.resize(k + 1);
            LevelBound& l = pending_[k];
            l.most = std::max(l.most, std::min<std::uint64_t>(entries, positions_));
            if (!l.waiting) {
                l.waiting = true, l.total = total, l.entries = entries;
                break;
            }
            l.waiting = false, total += l.total, entries += l.entries;
        }
    }
}

// The block's frame_ptr, pixels and counts into pinned half `half` (once the block two back
// has gone up from it; copied on the rings' threads) and on to the device without waiting.
void SparseRings::stage(const SparseBlock& block, std::size_t half) {
    const std::size_t n = block.entries(), ptrBytes = (block_ + 1) * 8;
    if (std::max<std::size_t>(n, 1) > entries_) {
        complete(); // the other half may still be going up
        entries_ = std::max<std::size_t>(n, 2 * entries_);
        pixel_ = s_.allocate(entries_ * 4, "sparse pixels", CL_MEM_READ_ONLY);
        count_ = s_.allocate(entries_ * 4, "sparse counts", CL_MEM_READ_ONLY);
        for (auto& host : staging_)
            host = s_.device().pinned(ptrBytes + entries_ * 8, s_.queue());
    }
    if (!ptr_()) ptr_ = s_.allocate(ptrBytes, "sparse frame_ptr", CL_MEM_READ_ONLY);
    if (uploaded_[half]()) {
        const auto waiting = std::chrono::steady_clock::now();
        uploaded_[half].wait();
        s_.timings().add("sparse staging: its wait for the half's last upload (host)",
                         msSince(waiting));
    }
    auto* at = static_cast<std::byte*>(staging_[half]->host);
    const std::size_t bytes[] = {block.ptr.size() * 8, n * 4, n * 4};
    const std::byte* from[] = {reinterpret_cast<const std::byte*>(block.ptr.data()),
                               reinterpret_cast<const std::byte*>(block.pixel.data()),
                               reinterpret_cast<const std::byte*>(block.count.data())};
    const cl::Buffer* to[] = {&ptr_, &pixel_, &count_};
    const std::size_t offset[] = {0, ptrBytes, ptrBytes + entries_ * 4};
    for (int i = 0; i < 3; ++i) {
        if (bytes[i] == 0) continue;
        // Pieces of 4 MiB over the threads: one thread's copy into pinned memory bounded the
        // host's side at 1 % occupancy.
        const std::size_t piece = std::size_t(4) << 20, pieces = (bytes[i] + piece - 1) / piece;
        copies_.run(pieces, pieces, [&](std::size_t p0, std::size_t p1) {
            const std::size_t b0 = p0 * piece, b1 = std::min(bytes[i], p1 * piece);
            std::memcpy(at + offset[i] + b0, from[i] + b0, b1 - b0);
        });
        cl::Event event;
        s_.queue().enqueueWriteBuffer(*to[i], CL_FALSE, 0, bytes[i], at + offset[i], nullptr,
                                      &event);
        s_.record(event, "copy H->D sparse entries");
        uploaded_[half] = event;
    }
}

void SparseRings::add(const SparseBlock& block) {
    const std::size_t frames = block.frames();
    if (frames == 0) return;
    const auto start = std::chrono::steady_clock::now();
    DeviceBlock on; // each frame's entries and counts (summed on the threads), then its buffers
    on.entries.resize(frames), on.totals.resize(frames);
    on.first = block.first, on.where = block.where;
    copies_.run(frames, std::min<std::size_t>(frames, 16), [&](std::size_t f0, std::size_t f1) {
        for (std::size_t f = f0; f < f1; ++f) {
            on.entries[f] = static_cast<std::uint64_t>(block.ptr[f + 1] - block.ptr[f]);
            for (auto i = std::size_t(block.ptr[f]); i < std::size_t(block.ptr[f + 1]); ++i)
                on.totals[f] += block.count[i];
        }
    });
    checkTotals(on);
    s_.timings().add("sparse checks (host)", msSince(start));
    const auto staging = std::chrono::steady_clock::now();
    stage(block, blocks_ % 2);
    on.ptr = ptr_, on.pixel = pixel_, on.count = count_;
    s_.timings().add("sparse staging (host; its wait for the half included)", msSince(staging));
    queue(on);
}

void SparseRings::add(const DeviceBlock& block) {
    if (block.frames() == 0) return;
    checkTotals(block);
    queue(block);
}

} // namespace clscope::xpcs
