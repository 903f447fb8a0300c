// Where the OpenCL variant `multitau`'s per-row sums go (multitau_rings.hpp): one device's
// blocks are folded into MultitauStats as they come; a split by pixels (split_pixels.cpp) gives
// each of D devices a band of whole frame rows, and its blocks carry the sums over that band's
// pixels only. Those sums are integers and add exactly: block i of every part is summed here,
// element by element, then folded once, in block order, into the one MultitauStats of the
// whole bins (n: the whole bin's pixels). So the result is the one device's, bit for bit. In a
// split a part hands its block's read-back memory over as it is (no copy): the merge's own
// thread adds the parts' sums into the first part's memory and folds, and the part takes that
// memory again for a later block only once the block is folded (waitFolded). So no part waits
// on a fold but for its memory, and the process's one thread pool serves that thread alone.
#pragma once
#include "core/timing.hpp"
#include "core/xpcs/multitau.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace clscope::xpcs {

// Rows [first, first + count) of a level in a block's read-back sums, at sumsAt / prodsAt words.
struct RowsAt {
    int level = 0;
    std::size_t first = 0, count = 0, sumsAt = 0, prodsAt = 0;
};

// One block's rows of every level and their sums (words: one per value, two, lo then hi, for
// 32-bit data's 128-bit sums).
struct BlockSums {
    std::vector<RowsAt> rows;
    std::size_t index = 0, rowCount = 0, sumWords = 0, productWords = 0;
    std::int64_t *sums = nullptr, *products = nullptr;
    // What holds sums and products: a split's merge keeps it until the block is folded.
    std::shared_ptr<void> holder;
};

class MultitauMerge {
  public:
    // `parts` devices' blocks over the whole `bins`.
    MultitauMerge(Bins bins, int channels, std::size_t parts);
    ~MultitauMerge(); // stops and joins the fold thread
    MultitauMerge(const MultitauMerge&) = delete;
    MultitauMerge& operator=(const MultitauMerge&) = delete;
    const Bins& bins() const { return bins_; }
    std::size_t parts() const { return parts_; }
    // The frames of a block on every part: the first part's `proposed` (each proposes its
    // device's multitauBlock; they must agree, the blocks' rows being summed row for row).
    std::size_t agreeBlock(std::size_t proposed);
    std::int64_t mostPixels() const { return most_; }
    // The fold's threads (0: every core); a split's fold takes this many for each part.
    void setThreads(std::size_t threads) { threads_ = threads; }

    // Level k's statistics folded on a device over its first `rows` rows (one part only: a
    // split's parts each hold a band's sums, which must be added before any fold).
    void setFolded(int level, std::size_t rows, const std::vector<FoldedLag>& lags);
    // A part's block: one part's folded now (its sums read when this returns); a split's kept
    // (with its holder) until every part's came, then added and folded on the merge's thread
    // in block order. Throws once another part failed.
    void add(const BlockSums& block, bool wide);
    // Returns once block `index` and every one before it is folded (at once for one part);
    // throws once a part failed.
    void waitFolded(std::size_t index);
    // This part has added its last block.
    void partDone();
    // A part failed with `error`: the others stop at their next add() or finish(), with it.
    void fail(std::exception_ptr error);
    // Once every part is done: g2, g2_err, lag_frames, tau of the whole bins.
    Result finish(std::size_t frames, const Params& params);

  private:
    // A block of a split on its way: each part's block as handed over, in the order the parts
    // came; added into the first's memory and folded on the merge's thread once all are in.
    struct Pending {
        std::vector<BlockSums> parts;
        bool complete = false, wide = false;
    };
    static void addParts(Pending& p);
    void foldLoop();
    bool foldNext();
    void fold(const std::vector<RowsAt>& rows, const std::int64_t* sums,
              const std::int64_t* products, bool wide);
    void throwIfFailed() const;

    Bins bins_;
    int channels_;
    std::size_t parts_, block_ = 0;
    std::int64_t most_ = 0;
    std::atomic<std::size_t> threads_{4};
    MultitauStats stats_;
    std::mutex mutex_, folding_;
    std::condition_variable changed_;
    std::map<std::size_t, Pending> pending_; // by block index
    std::size_t next_ = 0, done_ = 0; // the next block to fold (all before: folded); parts done
    std::exception_ptr failed_;       // the first part's error (or the fold's)
    bool stopping_ = false;
    std::thread folder_; // a split's folds
};

// Waits for a block's fold running on a thread (its value: the fold's ms), timed under
// "PREFIX fold (host thread)" and "PREFIX wait for the fold (host)"; nothing when none runs.
void waitFoldTimed(std::future<double>& folding, TimingStats& timings, const std::string& prefix);

// The rows [row0, row1) of every frame a part of a split by pixels receives (split_pixels.cpp),
// and the merge its blocks go to; part 0 gives the result, the others an empty one.
struct MultitauBand {
    std::size_t row0 = 0, row1 = 0, part = 0;
    std::shared_ptr<MultitauMerge> merge;
};

// The whole bins restricted to pixels [from, to) of a frame (rows of a band), indices from
// `from`: the same bins in the same order, a bin without a pixel there empty.
Bins binsWithin(const Bins& bins, std::size_t from, std::size_t to);

} // namespace clscope::xpcs
