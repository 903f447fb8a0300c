// Dense lags on sparse frames on an OpenCL device (variant `sparse-pairs`): the entries the
// sparse readers give turned pixel-major (core/xpcs/pixel_major.hpp), their pairs added into the
// Gram matrices on the device (xpcs_sparse_pairs.cl), then the dense variants' lag sums and
// two-time maps (gpu/xpcs/runner.hpp).
#include "gpu/xpcs/lags_sparse_device.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/xpcs/multitau_sparse.hpp"
#include "core/xpcs/pixel_major.hpp"
#include "core/xpcs/sparse_blocks.hpp"
#include "gpu/xpcs/pairs_entries.hpp"
#include "gpu/xpcs/recipes.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

namespace clscope::xpcs {

namespace {

// The Gram matrices and frame sums of every bin from the pairs of each position's entries.
void gramFromPairs(DeviceRun& run, const PixelMajor& m, const Bins& bins) {
    ClSession& s = run.session;
    const std::size_t pad = static_cast<std::size_t>(run.framePad), nb = bins.count();
    const std::size_t positions = m.first.size() - 1;
    const std::size_t gramBytes = nb * pad * pad * sumBytes, sumsBytes = nb * pad * sumBytes;
    run.gram = s.allocate(gramBytes, "xpcs gram");
    run.sums = s.allocate(sumsBytes, "xpcs frame sums");
    s.fill(run.gram, gramBytes, "xpcs sparse-pairs clear");
    s.fill(run.sums, sumsBytes, "xpcs sparse-pairs clear");
    const PairsEntries e = uploadPairsEntries(s, m, bins);
    uploadPixelCounts(run, bins);
    cl::Kernel k = programKernel(run, programs::sparsePairs, "xsp_pairs");
    setArgs(k, e.first, e.frame, e.count, e.bin, e.positions, run.gram, run.sums, run.frames,
            run.framePad, run.binCount);
    s.launch(k, "xpcs sparse-pairs", {{roundUp(std::max<std::size_t>(positions, 1), 64)}, {64}});
}

// The Gram matrices of every bin on the device, as the dense variants hold them: refused before
// the entries are read when they cannot fit (DeviceError naming what would).
std::uint64_t gramBytesOf(const Bins& bins, std::size_t frames) {
    return std::uint64_t(bins.count()) * frames * frames * sumBytes;
}

void checkGramFits(const DeviceInfo& device, const Bins& bins, std::size_t frames) {
    const std::uint64_t gram = gramBytesOf(bins, frames);
    if (!sparsePairsGramFits(device, bins, frames))
        refuseGram(device,
                   "xpcs sparse-pairs: the Gram matrices of " + std::to_string(bins.count()) +
                       " bins x " + std::to_string(frames) + "^2 frames",
                   gram, "use fewer frames or bins, or --multitau");
}

} // namespace

bool sparsePairsGramFits(const DeviceInfo& device, const Bins& bins, std::size_t frames) {
    const std::uint64_t gram = gramBytesOf(bins, frames);
    return gram + (16 << 20) <= usableBytes(device) && gram <= device.maxAllocBytes;
}

Result correlateLagsSparseDevice(const DeviceInfo& device, const FrameBlocks& frames,
                                 const LabelMask& mask, const Params& params,
                                 const Progress& progress, const ProgramOverrides& programs) {
    const auto start = std::chrono::steady_clock::now();
    checkSparseInput(frames.dtype(), "sparse-pairs");
    const Bins bins = makeBins(mask);
    Result result = makeLagResult(bins, frames.frameCount(), params);
    checkGramFits(device, bins, frames.frameCount());
    const Progress reading([&](double f) { progress.report(0.5 * f); }, progress.cancelFlag());
    const PixelMajor m = pixelMajorOf(bins, frames, reading, params.threads);
    const std::int64_t most = *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
    if (const std::string overflow =
            sums64Overflow(frames.dtype(), m.largest, most, frames.frameCount());
        !overflow.empty())
        throw UsageError("xpcs variant 'sparse-pairs' cannot run: " + overflow +
                         "; sparse-cpu sums in 128 bits");
    ClSession session(device);
    std::optional<DeviceRun> held(std::in_place, session);
    DeviceRun& run = *held;
    setUpPairs(run, device, bins, frames.frameCount(), frames.dtype(), params, programs);
    run.twotime = !result.twotime.empty();
    addPairsHostTimes(session, m, start);
    return runPairs(std::move(result), session, held, device, m, progress, [&](Result& r) {
        gramFromPairs(run, m, bins);
        progress.report(0.8);
        progress.checkCancel();
        lagSums(run, GpuVariant{}, r);
        twotimeMaps(run, bins, frames.dtype(), r);
    });
}

} // namespace clscope::xpcs
