// What both designs of `sparse-pairs` start from (dense lags: lags_sparse_device.cpp; multi-tau:
// multitau_pairs.cpp): the run's device state for xpcs_sparse_pairs.cl and the series' entries
// pixel-major (core/xpcs/pixel_major.hpp) on the device, uploaded once.
#pragma once
#include "core/xpcs/pixel_major.hpp"
#include "gpu/xpcs/runner.hpp"

#include <chrono>
#include <optional>

namespace clscope::xpcs {

// xpcs_sparse_pairs.cl's inputs: each labelled position's entries [first[p], first[p + 1]),
// their frames and counts, and each position's bin.
struct PairsEntries {
    cl::Buffer first, frame, count, bin;
    int positions = 0;
};

// The run's programs and sizes: the dense variants' values for xpcs_common.cl (frames as the
// Gram matrices' side), sparse-pairs' tuning.
void setUpPairs(DeviceRun& run, const DeviceInfo& device, const Bins& bins, std::size_t frames,
                DType dtype, const Params& params, const ProgramOverrides& programs);

// The entries and bins on the device (blocking uploads: `m` may go when this returns).
PairsEntries uploadPairsEntries(ClSession& s, const PixelMajor& m, const Bins& bins);

// Bytes of the entries on the device (what uploadPairsEntries allocates).
std::uint64_t pairsEntryBytes(const PixelMajor& m);

// The host steps' times: the entries read, sorted by pixel, and the set-up since `start`.
void addPairsHostTimes(ClSession& s, const PixelMajor& m,
                       std::chrono::steady_clock::time_point start);

// A finished run's device, variant (sparse-pairs), timings, kernel time and entries read.
void stampPairsResult(Result& r, ClSession& s, const DeviceInfo& device, const PixelMajor& m);

// `steps(result)` (the run's work on the device, filling `result`), then waits for it, frees the
// run's buffers (`held`), turns an OpenCL error into a DeviceError and stamps the result.
template <class Steps>
Result runPairs(Result result, ClSession& session, std::optional<DeviceRun>& held,
                const DeviceInfo& device, const PixelMajor& m, const Progress& progress,
                Steps&& steps) {
    try {
        steps(result);
        session.finish();
        held.reset();
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "xpcs sparse-pairs", device);
    }
    stampPairsResult(result, session, device, m);
    progress.report(1.0);
    return result;
}

} // namespace clscope::xpcs
