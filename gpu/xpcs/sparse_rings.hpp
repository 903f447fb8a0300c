// The device side of the OpenCL variant `sparse` (xpcs_sparse.cl): multi-tau on the frames'
// entries. Each level keeps a ring of R_k rows (a value per labelled pixel, zero but where
// the row lists a position) and each row's list of its non-zero positions; a block's entries
// go up as stored (frame_ptr, pixel, count: a few bytes a photon, not a frame's pixels), or are
// on the device already (a live stream's frames compacted there, frame_compaction.hpp), are
// scattered into level 0, pairs merge into the next level by their lists, and each new row's
// frame sums and lag products per bin come from its list. The rows' sums are folded on the
// device (device_fold.hpp) into statistics read once at the end (or, under SP_FOLD=0, come back
// per row, as the dense rings' do, into a MultitauMerge): the same steps either way, so the
// same g2 bit for bit.
#pragma once
#include "core/range_pool.hpp"
#include "core/sparse/sparse_block.hpp"
#include "core/xpcs/multitau.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/block_marks.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/device_block.hpp"
#include "gpu/xpcs/device_fold.hpp"
#include "gpu/xpcs/multitau_merge.hpp"

#include <deque>
#include <future>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace clscope::xpcs {

class SparseRings {
  public:
    // Frames of frameSize pixels (counts of `dtype`), blocks of up to `block` frames.
    SparseRings(ClSession& s, const Bins& bins, const Params& params, DType dtype,
                std::size_t frameSize, std::size_t block, const ProgramOverrides& overrides);
    ~SparseRings(); // waits for the fold thread
    SparseRings(const SparseRings&) = delete;
    SparseRings& operator=(const SparseRings&) = delete;

    // The next block's frames queued through every level (its entries copied into pinned
    // staging: the block may go when this returns), while the block before it is folded on a
    // thread. UsageError where a binned frame's counts could take a 64-bit product out of
    // range; InputError (from here or complete(), once the block's sums are back) where a
    // pixel's counts in one frame sum beyond the dtype.
    void add(const SparseView& block);
    // The same for a block whose entries are on the device already: no staging, no upload.
    // Its buffers are read by what this queues: whatever writes them next is queued behind.
    void add(const DeviceBlock& block);
    // The levels below K by each position's pairs of entries (sp_pm_pairs), level K and above
    // by the rings: K from SP_PAIRS (else from `occupancy`, the fraction of the frames' pixels
    // stored: pairLevelsFor), lowered until every block of `block` frames holds whole rows of
    // level K and the lags of the levels below reach back one block at most; none beyond
    // pairsChannels channels. Before the first block, where every block but the last has `block`
    // frames (a file's; not a live stream's).
    void pairLevels(double occupancy, const Params& params);
    // Staging and device buffers for blocks of up to `entries` entries (before the first block:
    // not in its way; a larger block still takes larger ones).
    void holdEntries(std::size_t entries);
    // Every block queued has run and is folded.
    void complete();
    Result finish(std::size_t frames, const Params& params);

    // Whether frames of up to `frameTotal` counts each, `frames` of them, stay within the
    // 64-bit products binned over every level (add() refuses a block where they do not).
    static bool fits(std::uint64_t frameTotal, std::size_t frames);
    // Frames per block for `frames` frames of `positions` labelled pixels: the rings within a
    // memory budget (MT_FRAMES: given); twice as many where `occupancy` (the fraction of the
    // frames' pixels stored; < 0: not known) is below sparseWideBlocks.
    static std::size_t blockFor(std::size_t positions, std::size_t frames, int channels,
                                const DeviceInfo& device, const std::map<std::string, int>& tuning,
                                double occupancy = -1);
    static constexpr double sparseWideBlocks = 0.0025;
    // The first level whose rows, binned from frames of `occupancy`, hold more than pairsHeld
    // of the positions: the levels below it go by pairs; 0 where that is level 1 or below, the
    // occupancy is not known, or a position holds more than pairsEntries entries in a block of
    // `block` frames (each position's entries are sorted by one work-item). Measured on an H200
    // (512×1024, C = 16): at 1 % K = 6 (rows 47 % held) 200.6 ms of kernels against 248.5 at
    // K = 4 (15 %); at 0.1 % K = 8 (23 %, the most 2,048-frame blocks allow) 32.6 against 34.3
    // at K = 7; at 9.47 % (128×256, 3,000 frames in one block: 284 entries a position) K = 3
    // 258.6 ms against the rings' 2.84.
    static int pairLevelsFor(double occupancy, std::size_t block);
    static constexpr double pairsHeld = 0.4, pairsEntries = 32;
    static constexpr int pairsChannels = 64; // the most channels the pair levels take

  private:
    struct Level {
        cl::Buffer ring, list, length;
        cl::Buffer bits; // each row's listed positions, a bit each (words_ 32-bit words a row)
        int rows = 0;
        std::size_t count = 0, cleared = 0; // rows so far; rows cleared (below count - C)
        bool values = false; // rows held by their values alone (no lists): binned, summed so
        bool pairs = false;  // below pairsBelow_: no ring, its rows' sums by sp_pm_pairs
    };
    // A block on its way: its sums' rows, where they come back, and what its messages name.
    struct Inflight {
        BlockSums sums;
        cl::Event done; // the last read-back
        std::int32_t* beyond = nullptr;
        std::string where;
        std::size_t first = 0, frames = 0;
    };
    Level& level(std::size_t k);
    cl::Kernel& lagsKernel(std::size_t k, bool dense);
    bool crowded(std::size_t k) const; // level k's rows beyond the share (SP_DENSE)
    std::size_t words() const { return (positions_ + 31) / 32; } // a row's bitmap
    void clean(const Level& l); // unlisted values to 0: where a level turns to values
    void stage(const SparseView& block, std::size_t half, DeviceBlock& on);
    void upload(const SparseView& block, std::size_t half);
    void checkTotals(const DeviceBlock& block);
    void queue(const DeviceBlock& block); // the block's kernels, read-back and fold
    // The block's rows of the levels below pairsBelow_ and level pairsBelow_'s values
    // (sparse_pairs_levels.cpp); its first frame is the run's frame `first`.
    void queuePairs(const DeviceBlock& block, BlockSums& sums, std::size_t first);
    RowsAt& reserve(BlockSums& sums, std::size_t k, std::size_t first, std::size_t count);
    void binLevels(BlockSums& sums);
    void clearBelow();
    void lags(BlockSums& sums, std::size_t k, std::size_t first, std::size_t count);
    void launch(cl::Kernel& kernel, const std::string& label, std::size_t rows,
                std::size_t chunks = 1);
    std::size_t chunksOf(std::size_t k) const; // work-groups a row of level k's lists
    void readBack(Inflight& block, std::size_t half);
    void fold(Inflight& block);
    void waitFold();

    ClSession& s_;
    const Bins& bins_;
    std::shared_ptr<MultitauMerge> merge_;
    DType dtype_;
    int c_, wg_;
    std::size_t block_, positions_, capacity_, entries_ = 0, blocks_ = 0;
    ProgramRecipe recipe_;
    ProgramOverrides programs_;
    cl::Buffer position_, binOf_, offsets_;
    cl::Buffer ptr_[2], pixel_[2], count_[2]; // a half each, one a block in turn
    // A half each, one a block in turn: a block's sums go back on reads_ while the next
    // block's kernels write the other half. read_[h]: half h's last read-back, which the
    // kernels' queue waits for before it fills that half again.
    cl::Buffer sums_[2], prods_[2], beyond_[2];
    cl::CommandQueue reads_;
    cl::Event read_[2];
    std::size_t half_ = 0; // the half of the block being queued
    cl::Kernel scatter_, bin_, binValues_, clear_, forget_, clean_;
    std::map<std::size_t, cl::Kernel> lags_; // by level's lag set (0: level 0, 1: above)
    std::deque<Level> levels_;
    struct LevelBound {       // the host's bounds on a level's rows, as they are binned
        bool waiting = false; // the first row of a pair came: its counts and entries
        std::uint64_t total = 0, entries = 0;
        std::uint64_t most = 0; // the most entries (at most the positions) of any row so far
    };
    std::vector<LevelBound> pending_;
    int localBins_ = 0; // SP_LOCAL_BINS
    // The pair levels (pairLevels): levels below pairsBelow_ by sp_pm_pairs; a block's entries
    // position-major in half blocks_ % 2 (each position's start and length, then frame and
    // count of its entries), the block before's in the other half.
    int pairsBelow_ = 0;
    cl::Buffer pmCount_, pmTotal_, pixelOf_, pmStart_[2], pmLen_[2], pmFrame_[2], pmValue_[2];
    std::size_t pmEntries_[2] = {0, 0};
    cl::Kernel pmCountK_, pmPlace_, pmScatter_, pmPairs_, pmRowSums_;
    // The fold thread's last wait for a block's sums from the device (ms; -1: none since the
    // last waitFold), part of "sparse fold (host thread)".
    double sumsWaitMs_ = -1;
    int denseShare_ = 8; // SP_DENSE: levels of rows above positions / this take the values
    int chunk_ = 512;    // SP_CHUNK: list entries a work-group of sp_lags, sp_bin, sp_clear
    // The fold on the device (SP_FOLD, default 1; 0: the rows' sums come back to the host's
    // fold): then only each block's beyond word comes back.
    std::unique_ptr<DeviceFold> deviceFold_;
    // Pinned halves, one a block in turn: the entries going up, the sums coming back.
    std::shared_ptr<PinnedBlock> staging_[2], readback_[2];
    cl::Event uploaded_[2];        // a half's last upload
    cl::Event used_[2];            // the kernels of the last block that read a half's entries
    cl::CommandQueue uploads_;     // the entries' uploads, beside the kernels
    RangePool copies_{4};          // the copies into staging
    Inflight previous_, inflight_; // folded on a thread / on the device
    BlockMarks marks_;             // the session's events up to each block
    std::future<double> folding_;
};

} // namespace clscope::xpcs
