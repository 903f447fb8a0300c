// A unit of background work: what the GUI hands the job runner. The work runs on the
// runner's worker thread (where the algorithm builds its own ClSession on the device);
// its outcome's `deliver` then runs on the GUI thread to show the results.
#pragma once
#include "core/progress.hpp"
#include "core/timing.hpp"
#include "gpu/runtime/device_info.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clscope::ui {

// Timings of one run, labelled by what ran where.
struct RunTimings {
    std::string algorithm, variant, device;
    std::vector<TimingRecord> records;
    std::uint64_t entries = 0; // stored entries (events) a sparse run read (RunInfo::entries)
    double wallMs = 0;         // the run's wall (RunInfo::wallMs): entries / wall = events/s
};

struct JobOutcome {
    std::vector<TimingRecord>
        timings;                   // kernel and transfer timings (ClSession::timings().records())
    std::function<void()> deliver; // runs on the GUI thread; may be empty
    std::string summary;           // one line for the log, e.g. "15 bins, 500 lags"
    std::uint64_t entries = 0;     // RunInfo::entries of the run, when it read sparse frames
    double wallMs = 0;             // RunInfo::wallMs of the run
};

struct Job {
    std::string title;     // e.g. "xpcs gemm on ocl:0"
    std::string algorithm; // xpcs, spots, cluster, rbf, or "generate"
    std::string variant;   // variant id, empty when not a variant run
    DeviceInfo device;     // where it runs (the host reference for plain work)
    // Runs a user's kernels (a user:NAME variant): the runner stops waiting for a kernel of it
    // that runs past its limit (JobRunner::setKernelTimeout) and reports the job failed.
    bool watchKernels = false;
    // The other devices (specs) it runs on, when more than `device` (Compare's cells). A device
    // still held by a job the runner stopped waiting for refuses every job that names it.
    std::vector<std::string> otherDevices;
    // The work. Call progress.report(fraction) and progress.checkCancel() between steps
    // (at least every few hundred milliseconds so Cancel acts within a second).
    std::function<JobOutcome(const Progress& progress)> work;
};

} // namespace clscope::ui
