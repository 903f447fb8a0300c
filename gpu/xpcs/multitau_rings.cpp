#include "gpu/xpcs/multitau_rings.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "gpu/kernel_source.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/recipes.hpp"
#include "gpu/xpcs/runner.hpp"
#include "gpu/xpcs/tuning.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <stdexcept>

namespace clscope::xpcs {

namespace {

// Whether every |value| of `largest`, times `scale`, fits in an int (largest 0: not known).
bool fitsInt(double largest, double scale) {
    return largest > 0 && largest * scale < 2147483648.0;
}

} // namespace

TunableValues multitauHostValues(DType dtype, std::size_t total, const Params& params) {
    // 32-bit data: 128-bit sums (two words) over 64-bit rings. Else int rings where every
    // binned value (at most largest x 2^k <= largest x T) fits.
    const bool wide = dtype == DType::UInt32 || dtype == DType::Int32;
    const auto force = params.tuning.find("MT_RING64"); // tests: the 64-bit path
    const bool ring64 = wide || !fitsInt(double(dtypeLargest(dtype)), double(total)) ||
                        (force != params.tuning.end() && force->second != 0);
    return {{"DATA_T", clTypeName(dtype)},
            {"RING_T", ring64 ? "long" : "int"},
            {"MT_WIDE", wide ? "1" : "0"}};
}

MultitauRings::MultitauRings(ClSession& s, const Bins& bins, const Params& params, DType dtype,
                             std::size_t frameSize, std::size_t block, std::size_t total,
                             const ProgramOverrides& overrides,
                             const std::function<void()>& pixelsQueued,
                             std::shared_ptr<MultitauMerge> merge)
    : s_(s), bins_(bins),
      merge_(merge ? std::move(merge) : std::make_shared<MultitauMerge>(bins, params.channels, 1)),
      c_(params.channels), block_(block), frameSize_(frameSize), pixels_(bins.pixelIndex.size()),
      programs_(overrides), recipe_(overrides.apply(declared(programs::multitau))) {
    dtype_ = dtype;
    // Fold threads: 4 (measured: more contend with the staging copy, which bounds the wall).
    merge_->setThreads(std::size_t(tuned(params, "MT_FOLD_THREADS", 4)));
    foldThreadsGiven_ = params.tuning.count("MT_FOLD_THREADS") > 0;
    most_ = *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
    mostWhole_ = merge_->mostPixels(); // the merged sums' bound: the whole bins'
    if (pixels_ == 0) throw std::logic_error("xpcs multitau: rings without a labelled pixel");
    values_ = multitauHostValues(dtype, total, params); // MT_WG and the lags per mt_lags build
    wide_ = values_.at("MT_WIDE") == "1", ring64_ = values_.at("RING_T") == "long";
    largest0_ = double(dtypeLargest(dtype));
    rows_ = wide_ ? 1 : tuned(params, "MT_ROWS", 4);
    // CPU devices (PoCL): one work-item per (rows, bin), no barriers. GPUs: groups of at
    // least MT_WG_MIN, wider where a level has few rows (groupSize); MT_WG: fixed.
    fixedWg_ = params.tuning.count("MT_WG") || s.info().type == "CPU";
    wg_ = tuned(params, fixedWg_ ? "MT_WG" : "MT_WG_MIN", fixedWg_ ? 1 : 128);
    while (wg_ & (wg_ - 1))
        wg_ &= wg_ - 1;
    wg_ = wide_ ? fitLocal(wg_, std::size_t(c_ + 1) * 16) : wg_;
    pix_ = s.allocate(pixels_ * sizeof(std::int32_t), "multitau pixels", CL_MEM_READ_ONLY);
    s.upload(pix_, bins.pixelIndex.data(), pixels_ * sizeof(std::int32_t), "multitau pixels");
    offsets_ = s.allocate(bins.offsets.size() * sizeof(std::int64_t), "multitau offsets",
                          CL_MEM_READ_ONLY);
    s.upload(offsets_, bins.offsets.data(), bins.offsets.size() * sizeof(std::int64_t),
             "multitau offsets");
    if (pixelsQueued) pixelsQueued();
    // A block's rows over all levels: at most block at level 0, block / 2^k + 1 above.
    capacity_ = 2 * block + 64;
    const std::size_t words = wide_ ? 2 : 1;
    sumWords_ = words * capacity_ * bins.count();
    sums_ = s.allocate(sumWords_ * sizeof(std::int64_t), "multitau sums");
    prods_ = s.allocate(sumWords_ * std::size_t(c_) * sizeof(std::int64_t), "multitau products");
    // Pinned: read back at DMA speed, one piece a block in turn: two for one device (a block's
    // fold ends before the block after next comes back); a split's merge keeps each until the
    // block is folded, so more let a part run ahead of the merge's fold.
    readback_.resize(merge_->parts() > 1 ? 6 : 2);
    for (auto& host : readback_)
        host = s.device().pinned(sumWords_ * std::size_t(c_ + 1) * sizeof(std::int64_t), s.queue());
    gather_ = s.kernel(recipe_, programs_.over(values_), "mt_gather");
    bin_ = s.kernel(recipe_, programs_.over(values_), "mt_bin");
    prebuildLags(total);
}

void MultitauRings::checkLargest(std::uint64_t largest, std::size_t total) {
    largest_ = std::max(largest_, largest);
    if (const std::string why =
            wide_ ? std::string() : multitauOverflow(dtype_, largest_, mostWhole_, total, c_);
        !why.empty())
        throw UsageError("xpcs variant 'multitau' cannot run this input: " + why);
}

bool MultitauRings::needsLargest(std::size_t total) const {
    return !wide_ && !multitauOverflow(dtype_, dtypeLargest(dtype_), mostWhole_, total, c_).empty();
}

void MultitauRings::scanLargest(const cl::Buffer& frames, std::size_t count) {
    if (!largestKernel_()) { // the first block: the kernel and its word, from 0
        largestKernel_ = s_.kernel(recipe_, programs_.over(values_), "mt_largest");
        largestOnDevice_ = s_.allocate(sizeof(cl_uint), "multitau largest");
        const cl_uint zero = 0;
        s_.upload(largestOnDevice_, &zero, sizeof zero, "multitau largest");
    }
    setArgs(largestKernel_, frames, pix_, int(pixels_), cl_long(frameSize_), int(count),
            largestOnDevice_);
    s_.launch(largestKernel_, "xpcs multitau largest value",
              recipe_.shape("mt_largest", values_, {pixels_}));
    cl::Event event;
    s_.queue().enqueueReadBuffer(largestOnDevice_, CL_FALSE, 0, sizeof(cl_uint), &scanned_, nullptr,
                                 &event);
    s_.record(event, "multitau readback");
}

void MultitauRings::enqueue(const cl::Buffer& frames, std::size_t count, std::uint64_t largest,
                            std::size_t total) {
    checkLargest(largest, total);
    waitFold(); // the block two back: this block's sums come back into its half
    Level& zero = level(0);
    cl::Kernel& k = gather_;
    setArgs(k, frames, pix_, zero.ring, zero.rows, int(pixels_), cl_long(frameSize_),
            cl_long(zero.count), int(count));
    s_.launch(k, "xpcs multitau gather", recipe_.shape("mt_gather", values_, {pixels_}));
    std::size_t first = zero.count;
    zero.count += count;
    Block& block = current_;
    for (std::size_t lv = 0; first < levels_[lv].count; ++lv) {
        lags(block, lv, first, levels_[lv].count - first);
        first = binNext(lv);
    }
    block.index = blocks_;
    // Its piece of memory: free once the block that last used it is folded.
    if (blocks_ >= readback_.size()) merge_->waitFolded(blocks_ - readback_.size());
    block.holder = readback_[blocks_ % readback_.size()];
    block.sums = static_cast<std::int64_t*>(readback_[blocks_++ % readback_.size()]->host);
    block.products = block.sums + sumWords_;
    readBack(sums_, block.sums, block.sumWords, block.done);
    readBack(prods_, block.products, block.productWords, block.done);
    s_.queue().flush();
    // The block before this one is folded on a thread of its own (once its sums are back)
    // while the device works on this one and the caller stages the next.
    previous_ = std::move(inflight_);
    inflight_ = std::move(current_);
    current_ = Block();
    folding_ = std::async(std::launch::async, [this] {
        if (previous_.done()) previous_.done.wait();
        const auto start = std::chrono::steady_clock::now();
        fold(previous_);
        return msSince(start);
    });
    marks_.queued(s_);
}

void MultitauRings::waitFold() {
    waitFoldTimed(folding_, s_.timings(), "multitau");
}

void MultitauRings::complete() {
    waitFold();
    const auto start = std::chrono::steady_clock::now();
    s_.queue().finish();
    s_.timings().add("multitau wait for the device (host)", msSince(start));
    marks_.reset(); // the caller's finish() times every event
}

void MultitauRings::completePrevious() {
    waitFold(); // its fold waited for its sums: the events up to it have ended
    marks_.settlePrevious(s_);
}

Result MultitauRings::finish(std::size_t frames, const Params& params) {
    finishBlocks();
    merge_->partDone();
    return merge_->finish(frames, params);
}

void MultitauRings::finishBlocks() {
    waitFold();
    s_.mark("the block before the last folded");
    s_.queue().finish();
    foldOnEveryCore(); // the last block's fold: nothing else runs now
    fold(inflight_);
    s_.mark("the last block folded");
}

void MultitauRings::foldOnEveryCore() {
    if (!foldThreadsGiven_) merge_->setThreads(0);
}

// The largest power of two <= wg whose local sums (perItem bytes a work-item) fit.
int MultitauRings::fitLocal(int wg, std::size_t perItem) const {
    const std::size_t local =
        std::min<std::size_t>(s_.info().localMemBytes ? s_.info().localMemBytes : 32768, 49152);
    const std::size_t most = std::max<std::size_t>(s_.info().maxWorkGroupSize, 1);
    while (wg > 1 && (perItem * std::size_t(wg) > local || std::size_t(wg) > most))
        wg /= 2;
    return wg;
}

// mt_lags' group size for `groups` groups of rows of a level with `lags` lags: MT_WG_MIN,
// doubled up to 1024 while fewer than ~128K work-items would run (the top levels' few
// rows: each item's pass over its pixels is a chain of dependent loads).
int MultitauRings::groupSize(std::size_t groups, int lags) const {
    if (fixedWg_) return fitLocal(wg_, std::size_t(rows_) * std::size_t(lags + 1) * 4);
    int wg = wg_;
    while (wg < 1024 && groups * bins_.count() * std::size_t(wg) < 131072)
        wg *= 2;
    return fitLocal(wg, std::size_t(rows_) * std::size_t(lags + 1) * 4);
}

MultitauRings::Level& MultitauRings::level(std::size_t k) {
    while (levels_.size() <= k) {
        Level l;
        l.rows = c_ + static_cast<int>(block_ >> levels_.size()) + 2;
        l.ring = s_.allocate(std::size_t(l.rows) * pixels_ * (ring64_ ? 8 : 4), "multitau ring");
        levels_.push_back(l);
    }
    return levels_[k];
}

// mt_lags' tunable values on level k with wg work-items a group (MT_ROWS rows per group; int
// partial sums where a work-item's share of the largest bin, ceil(n / wg) terms of at most
// (largest 2^k)^2 each, fits); mt_lags_wide's for 32-bit data.
TunableValues MultitauRings::lagsValues(std::size_t k, int wg) const {
    TunableValues o = values_;
    o["MT_WG"] = std::to_string(wg);
    if (!wide_) {
        const double scale = std::ldexp(1.0, int(k)), terms = double((most_ + wg - 1) / wg);
        const bool acc32 = !ring64_ && fitsInt(largest0_ * scale, largest0_ * scale * terms);
        o["MT_LAG0"] = std::to_string(multitauFirstLag(int(k), c_));
        o["MT_LAGS"] = std::to_string(multitauLagCount(int(k), c_));
        o["MT_ROWS"] = std::to_string(rows_), o["ACC_T"] = acc32 ? "int" : "long";
    } else {
        o["MT_LAGS"] = std::to_string(c_);
    }
    return programs_.over(std::move(o));
}

// mt_lags of level k with wg work-items a group, built once per option set.
cl::Kernel& MultitauRings::lagsKernel(std::size_t k, int& wg) {
    const TunableValues o = lagsValues(k, wg);
    auto it = lags_.find(o);
    if (it == lags_.end())
        it = lags_.emplace(o, s_.kernel(recipe_, o, wide_ ? "mt_lags_wide" : "mt_lags")).first;
    // A build whose registers allow fewer items a group: the next smaller size.
    const std::size_t most =
        it->second.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(s_.device().device());
    if (wg > 1 && std::size_t(wg) > most) return lagsKernel(k, wg /= 2);
    return it->second;
}

// The mt_lags builds blocks of up to block_ frames, `total` in all, can ask for (every level
// with rows, its rows a block give or take one, a last short block), built at once on threads
// of their own: one build per level and group size, made when first launched, was most of a
// live run's stage wall on NVIDIA. A build that fails here is left to its launch to report.
// GPUs only (fixedWg_ off).
void MultitauRings::prebuildLags(std::size_t total) {
    // CPU devices (PoCL): one group size on every level, a few builds, made at first launch as
    // before (no builds on several threads there).
    if (fixedWg_) return;
    std::set<TunableValues> wanted;
    for (std::size_t k = 0; k < 63 && (std::size_t(1) << k) <= total; ++k)
        for (const std::size_t frames : {block_, total % block_}) {
            const std::size_t rows = frames >> k;
            for (const std::size_t count : {rows, rows + 1, std::size_t(1)}) {
                const std::size_t groups = (count + std::size_t(rows_) - 1) / std::size_t(rows_);
                if (count == 0 || frames == 0) continue;
                wanted.insert(
                    lagsValues(k, wide_ ? wg_ : groupSize(groups, multitauLagCount(int(k), c_))));
            }
        }
    const auto start = std::chrono::steady_clock::now();
    const std::string source = recipe_.source();
    std::vector<std::future<ProgramOrigin>> builds;
    for (const TunableValues& values : wanted)
        builds.push_back(std::async(std::launch::async, [&device = s_.device(), &source,
                                                         options = recipe_.options(values),
                                                         resolved = recipe_.resolve(values)] {
            try {
                return device.fetch(source, options, resolved).origin;
            } catch (const std::exception&) { // reported where it is launched
                return ProgramOrigin::source;
            }
        }));
    bool allLoaded = true; // from the disk cache of compiled programs, none built
    for (auto& b : builds)
        allLoaded &= b.get() == ProgramOrigin::disk;
    s_.timings().add(
        std::string(allLoaded ? "program loads (host, disk cache" : "program builds (host") +
            ", mt_lags, " + std::to_string(wanted.size()) + " at once)",
        msSince(start));
}

// Frame sums and lag products of level k's rows [first, first + count), into the block's
// share of the sums buffers.
void MultitauRings::lags(Block& block, std::size_t k, std::size_t first, std::size_t count) {
    const int lag0 = multitauFirstLag(int(k), c_), lags = multitauLagCount(int(k), c_);
    const std::size_t nb = bins_.count(), words = wide_ ? 2 : 1;
    if (block.rowCount + count > capacity_)
        throw std::logic_error("xpcs multitau: a block's rows exceed the sums buffers");
    RowsAt& r = block.rows.emplace_back();
    r.level = int(k), r.first = first, r.count = count;
    r.sumsAt = block.sumWords, r.prodsAt = block.productWords;
    const std::string label = k == 0 ? "xpcs multitau lags level 0" : "xpcs multitau lags";
    if (wide_) {
        int wg = wg_;
        cl::Kernel& kern = lagsKernel(k, wg);
        setArgs(kern, levels_[k].ring, levels_[k].rows, offsets_, cl_long(first), lag0, lags,
                int(nb), sums_, cl_long(r.sumsAt), prods_, cl_long(r.prodsAt));
        s_.launch(kern, label, {{count * std::size_t(wg), nb}, {std::size_t(wg), 1}});
    } else {
        const std::size_t groups = (count + std::size_t(rows_) - 1) / std::size_t(rows_);
        int wg = groupSize(groups, lags);
        cl::Kernel& kern = lagsKernel(k, wg);
        setArgs(kern, levels_[k].ring, levels_[k].rows, offsets_, cl_long(first), int(count),
                int(nb), sums_, cl_long(r.sumsAt), prods_, cl_long(r.prodsAt));
        s_.launch(kern, label, {{groups * std::size_t(wg), nb}, {std::size_t(wg), 1}});
    }
    block.rowCount += count;
    block.sumWords += words * count * nb;
    block.productWords += words * count * nb * std::size_t(lags);
}

// Start reading `words` words of `from` into `to`, timed as "multitau readback"; `done`: its
// event (unchanged when there is nothing to read).
void MultitauRings::readBack(const cl::Buffer& from, std::int64_t* to, std::size_t words,
                             cl::Event& done) {
    if (words == 0) return;
    cl::Event event;
    s_.queue().enqueueReadBuffer(from, CL_FALSE, 0, words * sizeof(std::int64_t), to, nullptr,
                                 &event);
    s_.record(event, "multitau readback");
    done = event;
}

// A block's per-row sums into the merge (folded there, with the other parts' where split).
void MultitauRings::fold(Block& block) {
    if (!block.rows.empty()) merge_->add(block, wide_);
    block = Block();
}

// Level k+1 rows from the pairs of level k completed so far; returns the first new one.
std::size_t MultitauRings::binNext(std::size_t k) {
    Level& next = level(k + 1);
    const std::size_t first = next.count, want = levels_[k].count / 2;
    if (want > first) {
        cl::Kernel& kern = bin_;
        setArgs(kern, levels_[k].ring, levels_[k].rows, next.ring, next.rows, int(pixels_),
                cl_long(first), int(want - first));
        s_.launch(kern, "xpcs multitau bin", recipe_.shape("mt_bin", values_, {pixels_}));
        next.count = want;
    }
    return first;
}

} // namespace clscope::xpcs
