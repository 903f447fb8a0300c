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

void SparseRings::holdEntries(std::size_t n) {
    const std::size_t ptrBytes = (block_ + 1) * 8;
    if (std::max<std::size_t>(n, 1) > entries_) {
        complete(); // the other half may still be going up
        uploads_.finish();
        entries_ = std::max<std::size_t>(n, 2 * entries_);
        for (std::size_t h = 0; h < 2; ++h) {
            pixel_[h] = s_.allocate(entries_ * 4, "sparse pixels", CL_MEM_READ_ONLY);
            count_[h] = s_.allocate(entries_ * 4, "sparse counts", CL_MEM_READ_ONLY);
            staging_[h] = s_.device().pinned(ptrBytes + entries_ * 8, s_.queue());
        }
    }
    for (cl::Buffer& ptr : ptr_)
        if (!ptr()) ptr = s_.allocate(ptrBytes, "sparse frame_ptr", CL_MEM_READ_ONLY);
}

// The block's frame_ptr, pixels and counts into pinned half `half` (once the block two back
// has gone up from it), each frame's counts summed into on.totals as they are copied: one pass
// over the counts on the rings' threads (a pass to sum them and another to copy them bounded
// the host's side at 1 % occupancy).
void SparseRings::stage(const SparseView& block, std::size_t half, DeviceBlock& on) {
    const std::size_t n = block.entries(), frames = block.frames(), ptrBytes = (block_ + 1) * 8;
    holdEntries(n);
    if (uploaded_[half]()) {
        const auto waiting = std::chrono::steady_clock::now();
        uploaded_[half].wait();
        s_.timings().add("sparse staging: its wait for the half's last upload (host)",
                         msSince(waiting));
    }
    auto* at = static_cast<std::byte*>(staging_[half]->host);
    std::memcpy(at, block.ptr.data(), block.ptr.size() * 8);
    auto* pixel = reinterpret_cast<std::int32_t*>(at + ptrBytes);
    auto* count = reinterpret_cast<std::uint32_t*>(at + ptrBytes + entries_ * 4);
    copies_.run(frames, std::min<std::size_t>(frames, 64), [&](std::size_t f0, std::size_t f1) {
        for (std::size_t f = f0; f < f1; ++f) {
            const auto a = std::size_t(block.ptr[f]), m = std::size_t(block.ptr[f + 1]) - a;
            std::memcpy(pixel + a, block.pixel[f], m * 4);
            std::uint64_t total = 0;
            const std::uint32_t* from = block.count[f];
            for (std::size_t i = 0; i < m; ++i) {
                const std::uint32_t c = from[i];
                count[a + i] = c, total += c;
            }
            on.entries[f] = m, on.totals[f] = total;
        }
    });
}

// Half `half`'s staged block on to the device's half `half`, on the uploads' queue once the
// kernels of the block two back (which read that half) are done, without waiting: the copies
// run beside the kernels of the block before. The kernels' queue waits for them.
void SparseRings::upload(const SparseView& block, std::size_t half) {
    const std::size_t n = block.entries(), ptrBytes = (block_ + 1) * 8;
    auto* at = static_cast<std::byte*>(staging_[half]->host);
    const std::size_t bytes[] = {block.ptr.size() * 8, n * 4, n * 4};
    const cl::Buffer* to[] = {&ptr_[half], &pixel_[half], &count_[half]};
    const std::size_t offset[] = {0, ptrBytes, ptrBytes + entries_ * 4};
    std::vector<cl::Event> after;
    if (used_[half]()) after.push_back(used_[half]);
    for (int i = 0; i < 3; ++i) {
        if (bytes[i] == 0) continue;
        cl::Event event;
        uploads_.enqueueWriteBuffer(*to[i], CL_FALSE, 0, bytes[i], at + offset[i],
                                    after.empty() ? nullptr : &after, &event);
        s_.record(event, "copy H->D sparse entries");
        uploaded_[half] = event;
    }
    uploads_.flush();
    const std::vector<cl::Event> up{uploaded_[half]};
    s_.queue().enqueueBarrierWithWaitList(&up);
}

void SparseRings::add(const SparseView& block) {
    const std::size_t frames = block.frames();
    if (frames == 0) return;
    const auto start = std::chrono::steady_clock::now();
    DeviceBlock on; // each frame's entries and counts (summed as they are staged), its buffers
    on.entries.resize(frames), on.totals.resize(frames);
    on.first = block.first, on.where = block.where;
    stage(block, blocks_ % 2, on);
    s_.timings().add("sparse staging (host; its wait for the half included)", msSince(start));
    checkTotals(on); // before anything of the block is queued
    upload(block, blocks_ % 2);
    const std::size_t half = blocks_ % 2;
    on.ptr = ptr_[half], on.pixel = pixel_[half], on.count = count_[half];
    queue(on);
}

void SparseRings::add(const DeviceBlock& block) {
    if (block.frames() == 0) return;
    checkTotals(block);
    queue(block);
}

} // namespace clscope::xpcs
