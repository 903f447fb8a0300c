// Multi-tau on sparse frames on an OpenCL device, variant `sparse-pairs` with --multitau: the
// series' entries pixel-major (pairs_entries.hpp), level 0's frame sums from every entry and
// every level's lag products from each position's pairs of entries (xpcs_sparse_pairs.cl:
// xsp_level_sums, xsp_multitau), the levels' frame sums binned on the host; then the rows of
// every level, in order, into the MultitauStats fold every multi-tau variant shares: the dense
// multi-tau's g2 and g2_err bit for bit. The work is the pairs a pixel's entries make, as a
// photon correlator's histogram of time differences, kept per row because g2_err needs each
// row's ratio. The whole series is held (its entries and every row's products, on the device
// and once on the host): a series beyond the device is refused before its entries are read,
// naming `sparse`, which correlates in blocks.
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/xpcs/multitau_sparse.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/pairs_entries.hpp"
#include "gpu/xpcs/plan.hpp"
#include "gpu/xpcs/recipes.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

namespace clscope::xpcs {

namespace {

// Where the rows of each level lie: level 0 always, level k >= 1 while its T >> k rows exceed
// C / 2 (the levels with a lag; DESIGN.md §5 multi-tau).
struct PairLevels {
    std::vector<std::int32_t> rows; // T_k
    std::vector<std::int64_t> at;   // where level k's products start (words)
    std::uint64_t words = 0;        // every level's products
};

PairLevels levelsOf(std::size_t frames, int channels, std::size_t bins) {
    PairLevels l;
    for (std::size_t k = 0; k == 0 || (frames >> k) > std::size_t(channels / 2); ++k) {
        l.rows.push_back(static_cast<std::int32_t>(frames >> k));
        l.at.push_back(static_cast<std::int64_t>(l.words));
        l.words += (frames >> k) * bins * std::size_t(multitauLagCount(int(k), channels));
    }
    return l;
}

// The rows' products and frame sums on the device beside `entries` bytes of entries: checked
// before the entries are read (none) and once they are (DeviceError naming what they need).
void checkRowsFit(const DeviceInfo& device, const Bins& bins, std::size_t frames,
                  const PairLevels& levels, std::uint64_t entries) {
    const std::uint64_t products = levels.words * 8,
                        sums = std::uint64_t(frames) * bins.count() * 8 + entries;
    if (products + sums + (16 << 20) > usableBytes(device) || products > device.maxAllocBytes)
        refuseGram(device,
                   "xpcs sparse-pairs multi-tau: the lag products of " +
                       std::to_string(bins.count()) + " bins over every row of " +
                       std::to_string(frames) + " frames" + (entries ? " and their entries" : ""),
                   products + sums, "use --variant sparse, which correlates in blocks");
}

// Level 0's frame sums from the device, the levels above binned from them, each level checked
// before the next is made: UsageError naming sparse-cpu where a bin's sum passes
// largestProductRoot.
std::vector<std::vector<std::int64_t>> levelSums(DeviceRun& run, const PairsEntries& e,
                                                 const Bins& bins, const PairLevels& levels) {
    ClSession& s = run.session;
    const std::size_t nb = bins.count(), frames = std::size_t(levels.rows[0]);
    cl::Buffer sums = s.allocate(frames * nb * 8, "xpcs sparse-pairs frame sums");
    s.fill(sums, frames * nb * 8, "xpcs sparse-pairs clear");
    cl::Kernel k = programKernel(run, programs::sparsePairs, "xsp_level_sums");
    setArgs(k, e.first, e.frame, e.count, e.bin, e.positions, sums, run.binCount);
    s.launch(k, "xpcs sparse-pairs level sums",
             {{roundUp(std::max<std::size_t>(std::size_t(e.positions), 1), 64)}, {64}});
    std::vector<std::vector<std::int64_t>> out(levels.rows.size());
    out[0].resize(frames * nb);
    s.download(sums, out[0].data(), frames * nb * 8, "copy D->H sparse-pairs frame sums");
    for (std::size_t level = 0; level < out.size(); ++level) {
        if (level > 0) {
            const std::vector<std::int64_t>& below = out[level - 1];
            out[level].resize(std::size_t(levels.rows[level]) * nb);
            for (std::size_t i = 0; i < out[level].size(); ++i)
                out[level][i] =
                    below[(i / nb) * 2 * nb + i % nb] + below[(i / nb) * 2 * nb + nb + i % nb];
        }
        const auto most = std::max_element(out[level].begin(), out[level].end());
        if (most != out[level].end() && std::uint64_t(*most) > largestProductRoot)
            throw UsageError(
                "xpcs variant 'sparse-pairs' cannot run: a binned frame of level " +
                std::to_string(level) + " holds " + std::to_string(*most) + " counts in bin " +
                std::to_string(bins.labels[std::size_t(most - out[level].begin()) % nb]) +
                ", beyond " + std::to_string(largestProductRoot) +
                " (its 64-bit lag products could overflow); run sparse-cpu, which "
                "sums in 128 bits");
    }
    return out;
}

// Every level's lag products, read back (levels.words words).
std::vector<std::int64_t> levelProducts(DeviceRun& run, const PairsEntries& e,
                                        const PairLevels& levels, int channels) {
    ClSession& s = run.session;
    const std::size_t bytes = std::max<std::uint64_t>(levels.words, 1) * 8;
    cl::Buffer products = s.allocate(bytes, "xpcs sparse-pairs lag products"),
               rows = s.allocate(levels.rows.size() * 4, "xpcs sparse-pairs levels"),
               at = s.allocate(levels.at.size() * 8, "xpcs sparse-pairs levels");
    s.fill(products, bytes, "xpcs sparse-pairs clear");
    s.upload(rows, levels.rows.data(), levels.rows.size() * 4, "copy H->D sparse-pairs levels");
    s.upload(at, levels.at.data(), levels.at.size() * 8, "copy H->D sparse-pairs levels");
    cl::Kernel k = programKernel(run, programs::sparsePairs, "xsp_multitau");
    setArgs(k, e.first, e.frame, e.count, e.bin, e.positions, rows, at,
            static_cast<int>(levels.rows.size()), channels, run.binCount, products);
    s.launch(k, "xpcs sparse-pairs multi-tau",
             {{roundUp(std::max<std::size_t>(std::size_t(e.positions), 1), 64)}, {64}});
    std::vector<std::int64_t> out(levels.words);
    if (levels.words)
        s.download(products, out.data(), levels.words * 8, "copy D->H sparse-pairs lag products");
    return out;
}

} // namespace

Result correlateMultitauPairs(const DeviceInfo& device, const FrameBlocks& frames,
                              const LabelMask& mask, const Params& params, const Progress& progress,
                              const ProgramOverrides& programs) {
    const auto start = std::chrono::steady_clock::now();
    checkSparseInput(frames.dtype(), "sparse-pairs");
    checkMultitau(frames.dtype(), frames.frameCount(), mask, params);
    const Bins bins = makeBins(mask);
    const PairLevels levels = levelsOf(frames.frameCount(), params.channels, bins.count());
    checkRowsFit(device, bins, frames.frameCount(), levels, 0);
    const Progress reading([&](double f) { progress.report(0.5 * f); }, progress.cancelFlag());
    const PixelMajor m = pixelMajorOf(bins, frames, reading, params.threads);
    checkRowsFit(device, bins, frames.frameCount(), levels, pairsEntryBytes(m));
    ClSession session(device);
    std::optional<DeviceRun> held(std::in_place, session);
    DeviceRun& run = *held;
    setUpPairs(run, device, bins, frames.frameCount(), frames.dtype(), params, programs);
    addPairsHostTimes(session, m, start);
    return runPairs(Result{}, session, held, device, m, progress, [&](Result& result) {
        const PairsEntries e = uploadPairsEntries(session, m, bins);
        const auto sums = levelSums(run, e, bins, levels);
        progress.checkCancel();
        const std::vector<std::int64_t> products = levelProducts(run, e, levels, params.channels);
        progress.report(0.8);
        const auto folding = std::chrono::steady_clock::now();
        MultitauStats stats(bins, params.channels, true);
        stats.setThreads(params.threads);
        std::vector<StatsRows<std::int64_t>> rows;
        for (std::size_t k = 0; k < levels.rows.size(); ++k)
            rows.push_back({static_cast<int>(k), 0, std::size_t(levels.rows[k]), sums[k].data(),
                            products.data() + levels.at[k]});
        stats.addRows(rows);
        session.timings().addHostPhase("xpcs sparse-pairs: fold (host wall)", msSince(folding));
        result = stats.finish(bins, frames.frameCount(), params);
    });
}

} // namespace clscope::xpcs
