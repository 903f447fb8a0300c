// Multi-tau g2 (DESIGN.md §5): levels of the stack binned by 2^k, lags C/2..C-1 per level
// (0..C-1 at level 0), the dense definition at each lag. The frames are read once, front to
// back, block by block; the per-row sums of each level (frame sums S_t per bin and the lag
// products N_t per bin and lag) are folded into running statistics, so memory does not grow
// with the number of frames. The CPU reference and the OpenCL variants share the statistics.
#pragma once
#include "core/frame_stream.hpp"
#include "core/sparse/sparse_block.hpp"
#include "core/xpcs/exact_sum.hpp"
#include "core/xpcs/ratio_moments.hpp"
#include "core/xpcs/xpcs.hpp"

#include <memory>

namespace clscope {
class FrameStream;
}

namespace clscope::xpcs {

// The lags of level k: m = firstLag .. firstLag + lagCount - 1 (frames of level k).
inline int multitauFirstLag(int level, int channels) {
    return level == 0 ? 0 : channels / 2;
}
inline int multitauLagCount(int level, int channels) {
    return level == 0 ? channels : channels / 2;
}

// A frame stack read block by block, front to back.
class FrameBlocks {
  public:
    virtual ~FrameBlocks() = default;
    virtual std::size_t frameCount() const = 0;
    virtual std::size_t height() const = 0;
    virtual std::size_t width() const = 0;
    virtual DType dtype() const = 0;
    // Frames [first, first + count) as a (count, H, W) array of dtype().
    virtual Array read(std::size_t first, std::size_t count) const = 0;
    // The same frames where they lie contiguous in memory (no copy), else nullptr.
    virtual const std::byte* inPlace(std::size_t, std::size_t) const { return nullptr; }
    // The same frames' stored entries where they are stored sparsely, else nothing.
    virtual std::optional<SparseBlock> readSparse(std::size_t, std::size_t) const { return {}; }
    // The same frames' stored entries where they lie in memory (frame by frame, no copy: valid
    // while this is), else false.
    virtual bool viewSparse(std::size_t, std::size_t, SparseView&) const { return false; }
    // The same into `out` (whose memory a reader may reuse: a loop over blocks allocates once);
    // false where they are not stored sparsely.
    virtual bool readSparseInto(std::size_t first, std::size_t count, SparseBlock& out) const {
        std::optional<SparseBlock> stored = readSparse(first, count);
        if (stored) out = std::move(*stored);
        return stored.has_value();
    }
};
// The blocks of a stack in memory.
std::shared_ptr<const FrameBlocks> blocksInMemory(std::shared_ptr<const Array> frames);
// A stack of `frames` frames cycling through a pool in memory (frame t = pool[t % K]): long
// series from a few frames (bench).
std::shared_ptr<const FrameBlocks> blocksRepeating(std::shared_ptr<const Array> pool,
                                                   std::size_t frames);
// The blocks of a frame stream (a file's, or a detector stream's, read in order); `where`
// names it in the error for a stream that is not a (T,H,W) stack.
std::shared_ptr<const FrameBlocks> blocksOf(std::shared_ptr<const FrameStream> stream,
                                            const std::string& where);
// Frames per block for frames of `frameBytes` bytes: about 1 MiB, within [1, 65536].
std::size_t blockFrames(std::size_t frameBytes);

// Rows [first, first + count) of a level: frame sums sums[r * B + b], lag products
// products[(r * B + b) * lagCount + j].
template <class V> struct StatsRows {
    int level = 0;
    std::size_t first = 0, count = 0;
    const V* sums = nullptr;
    const V* products = nullptr;
};

// One (bin, lag)'s statistics as a fold elsewhere (a device's) formed them from a level's rows
// in order: the exact n Σ N_t and Σ S_t S'_t, the pairs with S_t S'_t != 0, and the moments of
// the non-zero ratios (RatioMoments' steps).
struct FoldedLag {
    Int128 numerator = 0, denominator = 0;
    std::uint64_t pairs = 0, nonzero = 0;
    double mean = 0, m2 = 0;
};

// Running statistics of every (bin, level, lag), fed with the rows of each level in order.
class MultitauStats {
  public:
    MultitauStats(const Bins& bins, int channels, bool integerData);
    // Threads of a large fold (0: one per core).
    void setThreads(std::size_t threads) { threads_ = threads; }
    // Rows [first, first + count) of a level (the next ones of that level): the frame sums
    // sums[r * B + b] and the lag products products[(r * B + b) * lagCount + j] of lag
    // multitauFirstLag + j; products whose earlier row does not exist are ignored.
    // V: std::int64_t or Int128 (integer data), double (float data).
    template <class V>
    void addRows(int level, std::size_t first, std::size_t count, const V* sums, const V* products);
    // Several levels' rows at once (a device block's, each level's in order): the same as
    // addRows for each in turn, the bins spread over threads once for all of them.
    template <class V> void addRows(const std::vector<StatsRows<V>>& rows);
    // Level k's statistics folded elsewhere over its first `rows` rows, lags[b * lagCount + j]
    // (integer data; in place of addRows for that level).
    void setFolded(int level, std::size_t rows, const std::vector<FoldedLag>& lags);
    // g2, g2_err (B x L) over the lags that exist, lag_frames, level, tau.
    Result finish(const Bins& bins, std::size_t frames, const Params& params) const;

  private:
    struct Lag {
        ExactSum numerator, denominator; // integer data: n Σ N_t, Σ S_t S'_t
        double fNumerator = 0, fDenominator = 0;
        RatioMoments ratios; // r_t of the pairs with S_t S'_t != 0
    };
    struct Level {
        std::size_t rows = 0;      // T_k so far
        std::vector<Int128> sums;  // last C frame sums per bin (integer data)
        std::vector<double> fSums; // the same for float data
        std::vector<Lag> lags;     // B x lagCount
    };
    Level& level(int k);
    template <class V> void foldBins(const StatsRows<V>& rows, std::size_t b0, std::size_t b1);
    template <class V>
    void foldRow(const StatsRows<V>& rows, std::size_t r, std::size_t b, std::size_t at, int pairs);
    // Integer data, a bin whose frame sums are small (S_t in [0, 2^31) and Σ S_t S'_t within
    // 64 bits; smallSums: whether so, its last C sums and the rows' in time order into `sums`):
    // each lag's Σ S_t S'_t and pairs as one dot product (foldDots), then only its non-zero
    // products visited, row by row (foldNonZero). The same sums as foldRow's.
    template <class V>
    bool smallSums(const StatsRows<V>& rows, std::size_t b, std::uint32_t* sums) const;
    template <class V>
    void foldDots(const StatsRows<V>& rows, std::size_t b, const std::uint32_t* sums);
    template <class V>
    void foldNonZero(const StatsRows<V>& rows, std::size_t r, std::size_t b,
                     const std::uint32_t* sums);
    // Integer data: the pair's terms n N_t and S_t S'_t (`earlier`: S'_t), in 64 bits where
    // they fit.
    template <class V> void addPair(Lag& lag, std::int64_t n, V gram, V s, Int128 earlier);
    template <class I> void addTerms(Lag& lag, I m, I d);
    void addPair(Lag& lag, double n, double product, double gram);
    std::vector<std::int64_t> pixels_;
    int channels_;
    bool integer_;
    std::size_t threads_ = 0;
    std::vector<Level> levels_;
};

// The largest |value| of an integer dtype (0 for float data).
std::uint64_t dtypeLargest(DType dtype);

// Checks the multi-tau parameters (channels even and >= 4) and the 32-bit bound of the CPU's
// 128-bit sums; UsageError / InputError with the reason.
void checkMultitau(DType dtype, std::size_t frames, const LabelMask& mask, const Params& params);

// Two-time maps of the labels asked for (params.twotimeLabels) over the stack binned by
// params.twotimeBin frames (0: the smallest F giving at most 1024 binned frames), a trailing
// partial bin dropped: one more pass over the frames. UsageError when the binned sums could
// leave uint32.
std::map<std::int32_t, std::vector<float>>
binnedTwotime(const FrameBlocks& frames, const LabelMask& mask, const Params& params);

// The frames per two-time cell binnedTwotime uses for a series of `total` frames.
std::size_t twotimeBinOf(std::size_t total, const Params& params);

// The CPU reference of multi-tau (variant `cpu` with --multitau).
Result correlateMultitauCpu(const FrameBlocks& frames, const LabelMask& mask, const Params& params,
                            const Progress& progress = {});

} // namespace clscope::xpcs
