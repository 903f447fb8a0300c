// The OpenCL variant `sparse` over any frame stack: blocks of frames read as entries (a sparse
// file's as stored, a dense stack's non-zero pixels) and correlated on the device by
// SparseRings (sparse_rings.hpp); entries a second in the run's figures (Result::entries).
#include "core/xpcs/multitau_sparse.hpp"
#include "core/clock.hpp"
#include "core/xpcs/sparse_blocks.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/sparse_rings.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <future>

namespace clscope::xpcs {

namespace {

// The fraction of the pixels of the first frames (64 at most) that hold an entry: the block
// size's occupancy (a short read: 64 frames of a 65,536-frame series).
double leadingOccupancy(const FrameBlocks& frames) {
    const std::size_t n = std::min<std::size_t>(64, frames.frameCount());
    if (n == 0) return -1;
    SparseBlock probe;
    sparseBlockInto(frames, 0, n, probe);
    return double(probe.entries()) / (double(n) * double(frames.height() * frames.width()));
}

} // namespace

Result correlateMultitauSparse(const DeviceInfo& device, const FrameBlocks& frames,
                               const LabelMask& mask, const Params& params,
                               const Progress& progress, const ProgramOverrides& programs) {
    const auto start = std::chrono::steady_clock::now();
    ClSession session(device);
    checkSparseInput(frames.dtype(), "sparse");
    checkMultitau(frames.dtype(), frames.frameCount(), mask, params);
    const std::size_t total = frames.frameCount();
    Result result;
    std::uint64_t entries = 0;
    try {
        const Bins bins = makeBins(mask);
        const double occupancy = leadingOccupancy(frames);
        const std::size_t block = SparseRings::blockFor(
            bins.pixelIndex.size(), total, params.channels, device, params.tuning, occupancy);
        // Block b + 1 read on a thread (into the other of two blocks, their memory reused)
        // while block b goes to the device; block 0 while the rings are set up, the other
        // block's memory then touched to its size (no page faults in block 1's read). Entries
        // that lie in memory already are staged from where they lie (a view: no read, no copy).
        SparseBlock blocks[2];
        SparseView views[2];
        const auto readBlock = [&](std::size_t b) {
            const auto reading = std::chrono::steady_clock::now();
            const std::size_t first = b * block, n = std::min(block, total - first);
            if (frames.viewSparse(first, n, views[b % 2])) return msSince(reading);
            sparseBlockInto(frames, first, n, blocks[b % 2]);
            views[b % 2] = viewOf(blocks[b % 2]);
            if (b == 0) {
                blocks[1].pixel.resize(blocks[0].pixel.size());
                blocks[1].count.resize(blocks[0].count.size());
            }
            return msSince(reading);
        };
        std::future<double> next = std::async(std::launch::async, readBlock, 0);
        SparseRings rings(session, bins, params, frames.dtype(), frames.height() * frames.width(),
                          block, programs);
        // Every block but the last `block` frames long: the low levels may go by pairs.
        if (total < std::size_t(INT_MAX)) rings.pairLevels(occupancy, params);
        // Staging for a block of the first frames' occupancy and a quarter more.
        if (occupancy > 0)
            rings.holdEntries(std::size_t(occupancy * 1.25 * double(block) *
                                          double(frames.height() * frames.width())));
        session.timings().addHostPhase("sparse set-up (host wall: bins, rings, programs)",
                                       msSince(start));
        session.mark("sparse: set up");
        const auto streaming = std::chrono::steady_clock::now();
        for (std::size_t b = 0; b * block < total; ++b) {
            session.timings().add("sparse read (host thread)", next.get());
            if (b == 0) session.mark("sparse: block 0 read");
            if ((b + 1) * block < total) next = std::async(std::launch::async, readBlock, b + 1);
            const SparseView& now = views[b % 2];
            entries += now.entries();
            rings.add(now);
            progress.report(double(b * block + now.frames()) / double(total));
            progress.checkCancel();
        }
        session.mark("sparse: every block queued");
        rings.complete();
        session.mark("sparse: the last block folded");
        session.finish();
        session.timings().addHostPhase(
            "sparse blocks (host wall: reads and checks; uploads, kernels and folds beside them)",
            msSince(streaming));
        result = rings.finish(total, params);
        session.mark("sparse: statistics done");
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "xpcs sparse", device);
    }
    result.device = device.spec + " (" + device.name + ")";
    result.variant = "sparse";
    result.entries = entries;
    result.timings = session.timings();
    result.kernelMs = result.timings.kernelMs();
    return result;
}

} // namespace clscope::xpcs
