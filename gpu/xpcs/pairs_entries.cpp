// sparse-pairs' device state and its pixel-major entries on the device (pairs_entries.hpp).
#include "gpu/xpcs/pairs_entries.hpp"

#include "core/clock.hpp"
#include "core/xpcs/sparse_blocks.hpp"
#include "gpu/xpcs/recipes.hpp"
#include "gpu/xpcs/tuning.hpp"

#include <algorithm>

namespace clscope::xpcs {

void setUpPairs(DeviceRun& run, const DeviceInfo& device, const Bins& bins, std::size_t frames,
                DType dtype, const Params& params, const ProgramOverrides& programs) {
    configure(run, runTuning(tuningOf("sparse-pairs", device, dtype), params, programs), dtype,
              Layout::Raw, false, programs, programs::sparsePairs);
    run.frames = run.framePad = static_cast<int>(frames);
    run.binCount = static_cast<int>(bins.count());
}

PairsEntries uploadPairsEntries(ClSession& s, const PixelMajor& m, const Bins& bins) {
    const std::size_t positions = m.first.size() - 1, entries = m.frame.size();
    const std::vector<std::int32_t> binOf = binOfPositions(bins);
    PairsEntries e;
    e.positions = static_cast<int>(positions);
    e.first = s.allocate(m.first.size() * 8, "xpcs sparse-pairs first");
    e.frame = s.allocate(std::max<std::size_t>(entries, 1) * 4, "xpcs sparse-pairs frames");
    e.count = s.allocate(std::max<std::size_t>(entries, 1) * 4, "xpcs sparse-pairs counts");
    e.bin = s.allocate(std::max<std::size_t>(positions, 1) * 4, "xpcs sparse-pairs bins");
    s.upload(e.first, m.first.data(), m.first.size() * 8, "copy H->D sparse entries");
    if (entries) {
        s.upload(e.frame, m.frame.data(), entries * 4, "copy H->D sparse entries");
        s.upload(e.count, m.count.data(), entries * 4, "copy H->D sparse entries");
    }
    if (positions) s.upload(e.bin, binOf.data(), positions * 4, "copy H->D sparse entries");
    return e;
}

std::uint64_t pairsEntryBytes(const PixelMajor& m) {
    return std::uint64_t(m.first.size()) * 8 + std::uint64_t(m.frame.size()) * 8 +
           std::uint64_t(m.first.size()) * 4;
}

void addPairsHostTimes(ClSession& s, const PixelMajor& m,
                       std::chrono::steady_clock::time_point start) {
    s.timings().add("xpcs sparse-pairs: entries read (host)", m.readMs);
    s.timings().add("xpcs sparse-pairs: entries sorted by pixel (host)", m.sortMs);
    s.timings().add("xpcs sparse-pairs: set-up (host)", msSince(start));
}

void stampPairsResult(Result& r, ClSession& s, const DeviceInfo& device, const PixelMajor& m) {
    r.device = device.spec + " (" + device.name + ")";
    r.variant = "sparse-pairs";
    r.timings = s.timings();
    r.kernelMs = r.timings.kernelMs();
    r.entries = m.read;
}

} // namespace clscope::xpcs
