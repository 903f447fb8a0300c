// SparseRings' pair levels (sparse_rings.hpp, xpcs_sparse_levels.cl): the levels below K of a
// block by each position's pairs of entries, level K's rows of the block written whole into its
// ring, where the rings take over.
#include "gpu/xpcs/sparse_rings.hpp"

#include "gpu/xpcs/runner.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

namespace clscope::xpcs {

int SparseRings::pairLevelsFor(double occupancy, std::size_t block) {
    if (occupancy <= 0 || occupancy * double(block) > pairsEntries) return 0;
    for (int k = 1; k < 24; ++k) { // binned over 2^k frames: 1 - (1 - occupancy)^(2^k) held
        const double held = -std::expm1(std::ldexp(std::log1p(-occupancy), k));
        if (held > pairsHeld) return k > 1 ? k : 0;
    }
    return 0;
}

void SparseRings::pairLevels(double occupancy, const Params& params) {
    if (blocks_ > 0) throw std::logic_error("xpcs sparse: pair levels after the first block");
    const auto given = params.tuning.find("SP_PAIRS"); // 0: the rings alone; < 0: the rule's
    int k = given != params.tuning.end() ? std::min(given->second, 30) : -1;
    if (k < 0) k = pairLevelsFor(occupancy, block_);
    // sp_pm_pairs keeps a position's last C rows in private memory: not for long lag lists.
    if (c_ > pairsChannels) k = 0;
    // Whole rows of level K in a block, the lags of level K - 1 within the block before.
    while (k > 0 && (block_ % (std::size_t(1) << k) != 0 ||
                     (std::size_t(std::max(c_, 2)) << (k - 1)) > block_))
        --k;
    pairsBelow_ = k;
    if (k == 0) return;
    pmCount_ = s_.allocate(positions_ * 4, "sparse pair counts");
    s_.fill(pmCount_, positions_ * 4, "sparse pair counts");
    pmTotal_ = s_.allocate(4, "sparse pair total");
    pixelOf_ = s_.allocate(positions_ * 4, "sparse pixels of positions", CL_MEM_READ_ONLY);
    s_.upload(pixelOf_, bins_.pixelIndex.data(), positions_ * 4, "sparse pixels of positions");
    for (int h = 0; h < 2; ++h) {
        pmStart_[h] = s_.allocate(positions_ * 4, "sparse pair starts");
        pmLen_[h] = s_.allocate(positions_ * 4, "sparse pair lengths");
    }
    const TunableValues values = programs_.over({{"SP_CHANNELS", std::to_string(c_)},
                                                 {"SP_WG", std::to_string(wg_)},
                                                 {"SP_LOCAL_BINS", std::to_string(localBins_)}});
    pmCountK_ = s_.kernel(recipe_, values, "sp_pm_count");
    pmPlace_ = s_.kernel(recipe_, values, "sp_pm_place");
    pmScatter_ = s_.kernel(recipe_, values, "sp_pm_scatter");
    pmPairs_ = s_.kernel(recipe_, values, "sp_pm_pairs");
    pmRowSums_ = s_.kernel(recipe_, values, "sp_pm_row_sums");
}

void SparseRings::queuePairs(const DeviceBlock& block, BlockSums& sums, std::size_t first) {
    const std::size_t frames = block.frames(), half = blocks_ % 2, nb = bins_.count();
    const auto top = std::size_t(pairsBelow_);
    if (first % (std::size_t(1) << top) != 0 || first + frames > std::size_t(INT_MAX))
        throw std::logic_error("xpcs sparse: a block of pair levels off their rows");
    std::size_t entries = 0;
    for (const std::uint64_t n : block.entries)
        entries += n;
    if (std::max<std::size_t>(entries, 1) > pmEntries_[half]) { // the block two back's go
        pmEntries_[half] = std::max<std::size_t>(entries, 2 * pmEntries_[half]);
        pmFrame_[half] = s_.allocate(pmEntries_[half] * 4, "sparse pair frames");
        pmValue_[half] = s_.allocate(pmEntries_[half] * 4, "sparse pair counts");
    }
    std::vector<RowsAt> at; // levels 0 .. top - 1
    for (std::size_t k = 0; k < top; ++k)
        at.push_back(reserve(sums, k, first >> k, ((first + frames) >> k) - (first >> k)));
    setArgs(pmCountK_, block.ptr, block.pixel, block.count, position_, binOf_, pmCount_, int(nb),
            sums_[half], cl_long(at[0].sumsAt));
    launch(pmCountK_, "xpcs sparse pairs: count", frames);
    s_.fill(pmTotal_, 4, "sparse pair total");
    const auto wg = std::size_t(wg_), groups = (positions_ + wg - 1) / wg;
    setArgs(pmPlace_, pmCount_, pmStart_[half], pmLen_[half], int(positions_), pmTotal_);
    s_.launch(pmPlace_, "xpcs sparse pairs: place", {{groups * wg, 1}, {wg, 1}});
    setArgs(pmScatter_, block.ptr, block.pixel, block.count, position_, pmCount_, pmStart_[half],
            cl_long(first), pmFrame_[half], pmValue_[half]);
    launch(pmScatter_, "xpcs sparse pairs: scatter", frames);
    Level& ring = level(top);
    const std::size_t other = 1 - half;
    const cl::Buffer& prevFrame = pmFrame_[other]() ? pmFrame_[other] : pmFrame_[half];
    const cl::Buffer& prevValue = pmValue_[other]() ? pmValue_[other] : pmValue_[half];
    setArgs(pmPairs_, pmStart_[other], pmLen_[other], prevFrame, prevValue, pmStart_[half],
            pmLen_[half], pmFrame_[half], pmValue_[half], binOf_, pixelOf_, int(positions_),
            cl_long(first), int(frames), int(top), int(nb), prods_[half], cl_long(at[0].prodsAt),
            ring.ring, ring.rows, cl_long(dtypeLargest(dtype_)), beyond_[half]);
    s_.launch(pmPairs_, "xpcs sparse pairs", {{groups * wg, 1}, {wg, 1}});
    for (std::size_t k = 1; k < top; ++k) {
        if (at[k].count == 0) continue;
        const std::size_t rows = (at[k].count + 63) / 64 * 64;
        setArgs(pmRowSums_, sums_[half], cl_long(at[0].sumsAt), cl_long(at[k].sumsAt),
                int(at[k].count), int(nb), int(1) << k);
        s_.launch(pmRowSums_, "xpcs sparse pairs: row sums", {{rows, nb}, {64, 1}});
    }
    for (std::size_t k = 0; k <= top; ++k)
        levels_[k].count = (first + frames) >> k;
    const std::size_t lo = first >> top, hi = (first + frames) >> top;
    if (hi > lo) lags(sums, top, lo, hi - lo);
}

} // namespace clscope::xpcs
