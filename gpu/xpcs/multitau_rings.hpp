// The device side of the OpenCL variant `multitau` (xpcs_multitau.cl): each level keeps a
// device ring of its last C + F/2^k + 2 rows (labelled pixels in bin order), F the frames of a
// block; a block of frames in a device buffer is gathered into level 0, new rows cascade to the
// next level in pairs, and each level's new rows are reduced per bin. The frame sums and lag
// products come back per row and are folded into MultitauStats on the host (the previous
// block's on a thread of its own while the device runs the next): memory is bounded by the
// block size, not by the number of frames. The host may run one block ahead of the device
// (completePrevious): a block's readback half is reused two blocks later, once its fold is done.
// Where the frames come from is the caller's: a file run's blocks sent up through pinned staging
// (multitau_stream.cpp), the streaming pipeline's frame buffer (stream_stage.cpp).
#pragma once
#include "core/xpcs/multitau.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/block_marks.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/multitau_merge.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>

namespace clscope::xpcs {

// The program's values the host sets from the data (every tunable of xpcs_multitau is
// fromInput): the frames' type, the rings' (int where every binned value of `total` frames
// fits) and the 128-bit sums of 32-bit data; MT_WG and the lags are set per mt_lags build.
TunableValues multitauHostValues(DType dtype, std::size_t total, const Params& params);

class MultitauRings {
  public:
    // Blocks of up to `block` frames of `frameSize` pixels, `total` frames in all at most.
    // pixelsQueued (if any) runs once the pixel lists' uploads are queued, before the rest is
    // made (buffers, programs): frames queued there go up after them, not before (the lists
    // wait behind every DMA queued ahead of them, and the first kernels with them).
    // `merge` (null: one of its own over `bins`) takes the blocks' sums (multitau_merge.hpp);
    // `bins`: those of the pixels on this device, the merge's bins in the same order.
    MultitauRings(ClSession& s, const Bins& bins, const Params& params, DType dtype,
                  std::size_t frameSize, std::size_t block, std::size_t total,
                  const ProgramOverrides& overrides, const std::function<void()>& pixelsQueued = {},
                  std::shared_ptr<MultitauMerge> merge = {});

    // Enqueue the kernels of the next block (`count` frames at `frames`, frame f at f *
    // frameSize elements; values up to `largest`) and the read of their sums, and flush;
    // nothing waits for them (complete()). UsageError (before anything of it runs) when its
    // values could take a 64-bit sum out of range.
    void enqueue(const cl::Buffer& frames, std::size_t count, std::uint64_t largest,
                 std::size_t total);
    // Wait for the fold and for the block enqueued last (host times: where the wall goes).
    void complete();
    // Or wait only for the block enqueued before the last one, fold included, and time its
    // events: the device runs the last block meanwhile and the next can be enqueued behind it.
    void completePrevious();
    // The last block folded (into the merge), then the merge's result (one device's rings).
    Result finish(std::size_t frames, const Params& params);
    // The last block folded into the merge (a part of a split: the merge gives the result).
    void finishBlocks();
    // Fold on every core from now on (unless MT_FOLD_THREADS is given): where no staging copy
    // needs the host's cores (frames that go up in place), and for the last block.
    void foldOnEveryCore();

    // Whether the overflow bound needs the frames' largest |value| (the dtype's largest could
    // take a sum out of range): then scanLargest() each block before enqueue().
    bool needsLargest(std::size_t total) const;
    // The largest |value| of the labelled pixels of `count` frames at `frames`, found on the
    // device (mt_largest): read once the block is complete() (largestScanned()).
    void scanLargest(const cl::Buffer& frames, std::size_t count);
    std::uint64_t largestScanned() const { return scanned_; }
    // UsageError when values up to `largest` could take a 64-bit sum out of range.
    void checkLargest(std::uint64_t largest, std::size_t total);

  private:
    struct Block : BlockSums { // one block's rows of every level, read back at once
        cl::Event done;        // its last readback (sums in pinned readback_)
    };
    struct Level {
        cl::Buffer ring;
        int rows = 0;
        std::size_t count = 0; // rows of this level so far
    };

    int fitLocal(int wg, std::size_t perItem) const;
    int groupSize(std::size_t groups, int lags) const;
    Level& level(std::size_t k);
    TunableValues lagsValues(std::size_t k, int wg) const;
    cl::Kernel& lagsKernel(std::size_t k, int& wg);
    void prebuildLags(std::size_t total);
    void lags(Block& block, std::size_t k, std::size_t first, std::size_t count);
    void readBack(const cl::Buffer& from, std::int64_t* to, std::size_t words, cl::Event& done);
    void waitFold();
    void fold(Block& block);
    std::size_t binNext(std::size_t k);

    ClSession& s_;
    const Bins& bins_;
    std::shared_ptr<MultitauMerge> merge_;
    std::uint64_t largest_ = 0;
    double largest0_ = 0; // the dtype's largest |value| (0: not known)
    DType dtype_ = DType::UInt8;
    std::int64_t most_ = 0, mostWhole_ = 0; // pixels of the largest bin: here, of the whole bin
    int c_, wg_ = 64, rows_ = 1;
    bool wide_ = false, ring64_ = true; // 128-bit sums (32-bit data); 64-bit rings
    bool foldThreadsGiven_ = false;     // MT_FOLD_THREADS
    bool fixedWg_ = true;               // mt_lags' group size wg_ on every level
    std::size_t block_, frameSize_, pixels_, capacity_ = 0, sumWords_ = 0, blocks_ = 0;
    ProgramOverrides programs_;
    ProgramRecipe recipe_; // xpcs_multitau, as the run builds it
    TunableValues values_; // the host's, shared by every build
    cl::Buffer pix_, offsets_, sums_, prods_, largestOnDevice_;
    std::vector<std::shared_ptr<PinnedBlock>> readback_; // sums, then products, of a block
    cl::Kernel gather_, bin_, largestKernel_;
    std::map<TunableValues, cl::Kernel> lags_; // by tunable values
    std::deque<Level> levels_;
    // The block being enqueued, the last one enqueued (its sums on their way back) and the one
    // before it, folded on a thread of its own (folding_: its ms, declared after it).
    Block current_, inflight_, previous_;
    std::future<double> folding_;
    BlockMarks marks_;    // the session's events up to each block
    cl_uint scanned_ = 0; // mt_largest's, read back with the block
};

} // namespace clscope::xpcs
