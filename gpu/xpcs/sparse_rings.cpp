#include "gpu/xpcs/sparse_rings.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/xpcs/sparse_blocks.hpp"
#include "gpu/xpcs/recipes.hpp"
#include "gpu/xpcs/runner.hpp"
#include "gpu/xpcs/tuning.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace clscope::xpcs {

std::size_t SparseRings::blockFor(std::size_t positions, std::size_t frames, int channels,
                                  const DeviceInfo& device,
                                  const std::map<std::string, int>& tuning, double occupancy) {
    if (const auto it = tuning.find("MT_FRAMES"); it != tuning.end())
        return static_cast<std::size_t>(std::max(2, it->second & ~1));
    // Rings of C + f / 2^k + 2 rows at level k (about 2f + 24 (C + 2) rows over the levels), 8
    // bytes a position a row (value and list entry) and a bit (the list's bitmap): within a
    // third of the device's memory and
    // 24 GiB, level 0's ring one buffer the device allows; no more frames than the run has.
    const std::uint64_t budget =
        std::min<std::uint64_t>(device.globalMemBytes / 3, std::uint64_t(24) << 30);
    const std::uint64_t allowed = device.maxAllocBytes ? device.maxAllocBytes : budget;
    const auto bytes = [&](std::uint64_t f) {
        return (2 * f + 24 * std::uint64_t(channels + 2)) * (positions * 8 + (positions + 31) / 8);
    };
    const auto fits = [&](std::uint64_t f, std::uint64_t ringMost) {
        return bytes(f) <= budget && (f + std::size_t(channels) + 2) * positions * 4 <= ringMost &&
               f / 2 < frames;
    };
    // One ring at most 3 GiB: on NVIDIA (H100) 2.2 GB ran, 4.3 GB failed (error -9999) on
    // 2026-11-27; since 2026-11-28 (rings zeroed in pieces of at most 1 GiB) 4.3 GB runs on H100s
    // and H200s, so the wider blocks of sparse frames may take up to 5 GiB.
    const std::uint64_t most = std::min<std::uint64_t>(allowed, std::uint64_t(3) << 30);
    std::size_t f = 4096;
    while (f > 16 && !fits(f, most))
        f /= 2;
    // Sparse frames (below sparseWideBlocks of their pixels stored) in blocks twice as long: half
    // the launches a level takes, which bound them (H200: 0.1 % 370,200 -> 427,200 frames/s,
    // 0.2 % +3 %; 0.3 % -3 %, 1 % -13 %).
    if (occupancy >= 0 && occupancy < sparseWideBlocks &&
        fits(2 * f, std::min<std::uint64_t>(allowed, std::uint64_t(5) << 30)))
        f *= 2;
    return f;
}

SparseRings::SparseRings(ClSession& s, const Bins& bins, const Params& params, DType dtype,
                         std::size_t frameSize, std::size_t block,
                         const ProgramOverrides& overrides)
    : s_(s), bins_(bins), merge_(std::make_shared<MultitauMerge>(bins, params.channels, 1)),
      dtype_(dtype), c_(params.channels), block_(block), positions_(bins.pixelIndex.size()),
      capacity_(2 * block + 64), recipe_(overrides.apply(declared(programs::sparse))),
      programs_(overrides) {
    if (positions_ == 0) throw std::logic_error("xpcs sparse: rings without a labelled pixel");
    // The fold on every core (MT_FOLD_THREADS: given): with the blocks' few bytes going up, the
    // host's fold, not the device, bounded the wall (H100, 256-frame blocks: fold 554 ms on 4
    // threads beside kernels of 336 ms).
    merge_->setThreads(std::size_t(tuned(params, "MT_FOLD_THREADS", 0))); // 0: every core
    wg_ = tuned(params, "SP_WG", s.info().type == "CPU" ? 16 : 64);
    while (wg_ & (wg_ - 1))
        wg_ &= wg_ - 1;
    denseShare_ = tuned(params, "SP_DENSE", 8);
    chunk_ = tuned(params, "SP_CHUNK", 512);
    offsets_ = s.allocate(bins.offsets.size() * 8, "sparse bin offsets", CL_MEM_READ_ONLY);
    s.upload(offsets_, bins.offsets.data(), bins.offsets.size() * 8, "sparse bin offsets");
    const std::vector<std::int32_t> position = positionsOf(bins, frameSize),
                                    binOf = binOfPositions(bins);
    position_ = s.allocate(frameSize * 4, "sparse positions", CL_MEM_READ_ONLY);
    s.upload(position_, position.data(), frameSize * 4, "sparse positions");
    binOf_ = s.allocate(positions_ * 4, "sparse bins", CL_MEM_READ_ONLY);
    s.upload(binOf_, binOf.data(), positions_ * 4, "sparse bins");
    const std::size_t words = capacity_ * bins.count();
    for (std::size_t h = 0; h < 2; ++h) {
        sums_[h] = s.allocate(words * 8, "sparse sums");
        prods_[h] = s.allocate(words * std::size_t(c_) * 8, "sparse products");
        beyond_[h] = s.allocate(4, "sparse sum beyond the type");
        s.fill(beyond_[h], 4, "sparse sum beyond the type");
    }
    reads_ = cl::CommandQueue(s.context(), s.device().device(), CL_QUEUE_PROFILING_ENABLE);
    uploads_ = cl::CommandQueue(s.context(), s.device().device(), CL_QUEUE_PROFILING_ENABLE);
    const auto onDevice = params.tuning.find("SP_FOLD");
    if (onDevice == params.tuning.end() || onDevice->second != 0)
        deviceFold_ = std::make_unique<DeviceFold>(s, bins, c_, recipe_, programs_.over({}));
    for (auto& host : readback_) // the beyond word of a block, its sums and products before it
        host =
            s.device().pinned((deviceFold_ ? 0 : words * std::size_t(c_ + 1) * 8) + 8, s.queue());
    // A row's sums in local memory where they take at most 16 KiB (SP_LOCAL_BINS=0: never).
    const std::size_t rowWords = bins.count() * std::size_t(c_ + 1);
    localBins_ = rowWords * 8 <= 16384 ? static_cast<int>(bins.count()) : 0;
    if (const auto it = params.tuning.find("SP_LOCAL_BINS");
        it != params.tuning.end() && it->second == 0)
        localBins_ = 0;
    const TunableValues values = programs_.over({});
    scatter_ = s.kernel(recipe_, values, "sp_scatter");
    bin_ = s.kernel(recipe_, values, "sp_bin");
    binValues_ = s.kernel(recipe_, values, "sp_bin_values");
    clear_ = s.kernel(recipe_, values, "sp_clear");
    forget_ = s.kernel(recipe_, values, "sp_forget");
    clean_ = s.kernel(recipe_, values, "sp_clean");
}

SparseRings::~SparseRings() {
    try { // nothing queued outlives the pinned halves; the fold thread ends
        s_.queue().finish();
        reads_.finish();
        uploads_.finish();
        if (folding_.valid()) folding_.get();
    } catch (...) { // the run is unwinding with its own error
    }
}

SparseRings::Level& SparseRings::level(std::size_t k) {
    while (levels_.size() <= k) {
        Level l;
        if (levels_.size() < std::size_t(pairsBelow_)) { // no ring: sp_pm_pairs
            l.pairs = true;
            levels_.push_back(std::move(l));
            continue;
        }
        l.values = levels_.size() == std::size_t(pairsBelow_) && pairsBelow_ > 0;
        l.rows = c_ + static_cast<int>(block_ >> levels_.size()) + 2;
        const std::size_t slots = std::size_t(l.rows) * positions_;
        l.ring = s_.allocate(slots * 4, "sparse ring");
        l.list = s_.allocate(slots * 4, "sparse lists");
        l.length = s_.allocate(std::size_t(l.rows) * 4, "sparse list lengths");
        s_.fill(l.ring, slots * 4, "sparse ring");
        s_.fill(l.length, std::size_t(l.rows) * 4, "sparse list lengths");
        l.bits = s_.allocate(std::size_t(l.rows) * words() * 4, "sparse list bitmaps");
        s_.fill(l.bits, std::size_t(l.rows) * words() * 4, "sparse list bitmaps");
        levels_.push_back(std::move(l));
    }
    return levels_[k];
}

cl::Kernel& SparseRings::lagsKernel(std::size_t k, bool dense) {
    // Level 0's lags and those of every level above, by list or by values.
    const std::size_t key = (k == 0 ? 0 : 1) + (dense ? 2 : 0);
    auto it = lags_.find(key);
    if (it == lags_.end()) {
        const int lag0 = multitauFirstLag(int(k), c_), lags = multitauLagCount(int(k), c_);
        const TunableValues values =
            programs_.over({{"SP_LAG0", std::to_string(lag0)},
                            {"SP_LAGS", std::to_string(lags)},
                            {"SP_WG", std::to_string(wg_)},
                            {"SP_LOCAL_BINS", std::to_string(localBins_)}});
        it = lags_.emplace(key, s_.kernel(recipe_, values, dense ? "sp_lags_dense" : "sp_lags"))
                 .first;
    }
    return it->second;
}

bool SparseRings::crowded(std::size_t k) const {
    return pending_[k].most * std::uint64_t(denseShare_) > positions_;
}

void SparseRings::launch(cl::Kernel& kernel, const std::string& label, std::size_t rows,
                         std::size_t chunks) {
    const auto wg = static_cast<std::size_t>(wg_);
    s_.launch(kernel, label, {{rows * wg, chunks}, {wg, 1}});
}

// Long lists over several work-groups a row: SP_CHUNK entries each, at most 64.
std::size_t SparseRings::chunksOf(std::size_t k) const {
    return std::clamp<std::size_t>(pending_[k].most / std::size_t(chunk_), 1, 64);
}

// Rows first .. first + count - 1 of level k in the block's sums: where their sums go.
RowsAt& SparseRings::reserve(BlockSums& sums, std::size_t k, std::size_t first, std::size_t count) {
    const std::size_t nb = bins_.count();
    if (sums.rowCount + count > capacity_)
        throw std::logic_error("xpcs sparse: a block's rows exceed the sums buffers");
    RowsAt& r = sums.rows.emplace_back();
    r.level = int(k), r.first = first, r.count = count;
    r.sumsAt = sums.sumWords, r.prodsAt = sums.productWords;
    sums.rowCount += count;
    sums.sumWords += count * nb;
    sums.productWords += count * nb * std::size_t(multitauLagCount(int(k), c_));
    return r;
}

void SparseRings::lags(BlockSums& sums, std::size_t k, std::size_t first, std::size_t count) {
    const std::size_t nb = bins_.count();
    const RowsAt r = reserve(sums, k, first, count);
    const Level& l = levels_[k];
    // Rows of more entries than a share of the positions: the sums from their values.
    const bool dense = l.values || crowded(k);
    cl::Kernel& kern = lagsKernel(k, dense);
    if (dense) {
        // A large bin's positions over several work-groups (SP_WG·SP_CHUNK/16 each, at most 64).
        const auto wg = static_cast<std::size_t>(wg_);
        const std::size_t chunks = std::clamp<std::size_t>(
            std::size_t(merge_->mostPixels()) / (wg * std::size_t(chunk_) / 16 + 1), 1, 64);
        setArgs(kern, l.ring, offsets_, l.rows, int(positions_), cl_long(first), int(nb),
                int(chunks), sums_[half_], cl_long(r.sumsAt), prods_[half_], cl_long(r.prodsAt));
        s_.launch(kern, "xpcs sparse lags (values)", {{count * chunks * wg, nb}, {wg, 1}});
    } else {
        setArgs(kern, l.ring, l.bits, l.list, l.length, binOf_, l.rows, int(positions_),
                int(words()), int(positions_), cl_long(first), int(nb), sums_[half_],
                cl_long(r.sumsAt), prods_[half_], cl_long(r.prodsAt));
        launch(kern, k == 0 ? "xpcs sparse lags level 0" : "xpcs sparse lags", count, chunksOf(k));
    }
}

void SparseRings::queue(const DeviceBlock& block) {
    const std::size_t frames = block.frames(), half = blocks_ % 2;
    half_ = half;
    if (read_[half]()) { // the block two back's sums have left this half
        const std::vector<cl::Event> read{read_[half]};
        s_.queue().enqueueBarrierWithWaitList(&read);
    }
    s_.fill(sums_[half], capacity_ * bins_.count() * 8, "sparse sums");
    s_.fill(prods_[half], capacity_ * bins_.count() * std::size_t(c_) * 8, "sparse products");
    Level& zero = level(0);
    const std::size_t first = zero.count;
    Inflight now;
    now.where = block.where, now.first = block.first, now.frames = frames;
    if (pairsBelow_ > 0) {
        queuePairs(block, now.sums, first);
    } else {
        setArgs(scatter_, block.ptr, block.pixel, block.count, position_, zero.ring, zero.bits,
                zero.list, zero.length, zero.rows, int(positions_), int(words()), int(positions_),
                cl_long(first), cl_long(dtypeLargest(dtype_)), beyond_[half]);
        launch(scatter_, "xpcs sparse scatter", frames);
        zero.count += frames;
        lags(now.sums, 0, first, frames);
    }
    binLevels(now.sums);
    if (deviceFold_) deviceFold_->queue(now.sums.rows, sums_[half], prods_[half]);
    clearBelow();
    s_.queue().flush();
    waitFold(); // the block two back, whose sums came back into this half
    // Its commands have all run (its fold waited for them): their times are read now, a block
    // at a time, not all at the run's end.
    marks_.settlePrevious(s_);
    readBack(now, half);
    reads_.flush();
    // The block before this one is folded on a thread of its own (once its sums are back)
    // while the device works on this one and the caller reads the next.
    previous_ = std::move(inflight_);
    inflight_ = std::move(now);
    folding_ = std::async(std::launch::async, [this] {
        const auto start = std::chrono::steady_clock::now();
        fold(previous_);
        return msSince(start);
    });
    marks_.queued(s_);
}

// Complete pairs of each level k binned into level k + 1, their sums queued.
void SparseRings::binLevels(BlockSums& sums) {
    for (auto k = std::size_t(pairsBelow_);; ++k) {
        const std::size_t want = levels_[k].count / 2;
        const std::size_t done = k + 1 < levels_.size() ? levels_[k + 1].count : 0;
        if (want <= done) break;
        Level& next = level(k + 1);
        const Level& from = levels_[k];
        // Rows beyond the share: held by their values from here up (bins overwrite whole rows).
        const bool wasValues = next.values;
        next.values = next.values || from.values || crowded(k + 1);
        if (next.values && !wasValues && next.count > 0) clean(next);
        if (next.values) {
            setArgs(binValues_, from.ring, from.bits, int(!from.values), int(words()), from.rows,
                    next.ring, next.rows, int(positions_), cl_long(done));
            s_.launch(binValues_, "xpcs sparse bin (values)",
                      {{(positions_ + 63) / 64 * 64, want - done}, {64, 1}});
        } else {
            setArgs(bin_, from.ring, from.bits, from.list, from.length, from.rows, int(positions_),
                    next.ring, next.bits, next.list, next.length, next.rows, int(positions_),
                    int(positions_), int(words()), cl_long(done));
            launch(bin_, "xpcs sparse bin", want - done, chunksOf(k + 1));
        }
        next.count = want;
        lags(sums, k + 1, done, want - done);
    }
}

// Rows no lag reaches any more: their bitmaps and list lengths back to zero (every read of a
// list-held row above level 0 goes through its bitmap), level 0's values too by their lists
// (sp_scatter adds into them).
void SparseRings::clearBelow() {
    for (std::size_t k = 0; k < levels_.size(); ++k) {
        Level& l = levels_[k];
        const std::size_t below = l.count > std::size_t(c_) ? l.count - std::size_t(c_) : 0;
        if (l.values || l.pairs || below <= l.cleared) continue;
        const std::size_t rows = below - l.cleared;
        if (k == 0) {
            setArgs(clear_, l.ring, l.list, l.length, l.rows, int(positions_), int(positions_),
                    cl_long(l.cleared));
            launch(clear_, "xpcs sparse clear", rows, chunksOf(k));
        }
        const std::size_t quads = (words() + 3) / 4;
        setArgs(forget_, l.length, l.bits, l.rows, int(words()),
                int(l.cleared % std::size_t(l.rows)));
        s_.launch(forget_, "xpcs sparse forget", {{(quads + 63) / 64 * 64, rows}, {64, 1}});
        l.cleared = below;
    }
}

// Level l's rows as their bitmaps list them (unlisted values to 0): where it turns to values.
void SparseRings::clean(const Level& l) {
    setArgs(clean_, l.ring, l.bits, int(positions_), int(words()));
    s_.launch(clean_, "xpcs sparse clean",
              {{(positions_ + 63) / 64 * 64, std::size_t(l.rows)}, {64, 1}});
}

// The block's sums, products and beyond word into pinned half `half`, without waiting.
void SparseRings::readBack(Inflight& block, std::size_t half) {
    BlockSums& sums = block.sums;
    auto* host = static_cast<std::int64_t*>(readback_[half]->host);
    sums.index = blocks_++;
    block.beyond = reinterpret_cast<std::int32_t*>(host);
    sums.sums = host + 1;
    sums.products = sums.sums + sums.sumWords;
    const cl::Buffer* from[] = {&sums_[half], &prods_[half], &beyond_[half]};
    void* to[] = {sums.sums, sums.products, block.beyond};
    const std::size_t bytes[] = {deviceFold_ ? 0 : sums.sumWords * 8,
                                 deviceFold_ ? 0 : sums.productWords * 8, 4};
    // On the reads' queue once the kernels queued so far are done, beside the next block's.
    std::vector<cl::Event> kernels(1);
    s_.queue().enqueueMarkerWithWaitList(nullptr, &kernels[0]);
    s_.queue().flush();
    used_[half] = kernels[0];
    for (int i = 0; i < 3; ++i) {
        if (bytes[i] == 0) continue;
        cl::Event event;
        reads_.enqueueReadBuffer(*from[i], CL_FALSE, 0, bytes[i], to[i], &kernels, &event);
        s_.record(event, "copy D->H sparse sums");
        block.done = read_[half] = event;
    }
}

// A block's sums, once back, into the merge; InputError where a pixel summed beyond the type.
void SparseRings::fold(Inflight& block) {
    if (block.sums.rows.empty()) return;
    const auto start = std::chrono::steady_clock::now();
    block.done.wait();
    sumsWaitMs_ = msSince(start);
    if (const std::int32_t beyond = *block.beyond; beyond != 0)
        throw InputError(
            block.where + ": pixel " + std::to_string(beyond - 1) + " sums beyond " +
            dtypeName(dtype_) + " in a frame of frames " + std::to_string(block.first) + ".." +
            std::to_string(block.first + block.frames - 1) + " (listed more than once)");
    if (!deviceFold_) merge_->add(block.sums, false);
    block = Inflight();
}

void SparseRings::waitFold() {
    waitFoldTimed(folding_, s_.timings(), "sparse");
    if (sumsWaitMs_ < 0) return; // the fold thread's wait, read once the thread has ended
    s_.timings().add("sparse fold: its wait for the block's sums (host thread)", sumsWaitMs_);
    sumsWaitMs_ = -1;
}

void SparseRings::complete() {
    waitFold();
    const auto start = std::chrono::steady_clock::now();
    s_.queue().finish();
    reads_.finish();
    s_.timings().add("sparse wait for the device (host)", msSince(start));
    marks_.reset(); // the caller's finish() times every event
    fold(inflight_);
}

Result SparseRings::finish(std::size_t frames, const Params& params) {
    complete();
    if (deviceFold_) deviceFold_->into(*merge_);
    merge_->partDone();
    return merge_->finish(frames, params);
}

} // namespace clscope::xpcs
