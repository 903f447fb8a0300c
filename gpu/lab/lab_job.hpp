// One row of the kernel lab (`clscope-cli lab`): a variant run with program overrides on one
// input and device, checked against the algorithm's reference and timed. A job is run by the
// lab's worker process (gpu/lab/contained.hpp); the job and its row travel as JSON.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/lab/device_peaks.hpp"
#include "gpu/lab/program_figures.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace clscope {

struct LabJob {
    std::string algorithm, variant; // the variant whose host code runs (built-in or user:NAME)
    std::string label;              // the row's name for people, e.g. "fork LOCAL_SIZE=8"
    std::string device;             // device spec, "" the default device
    std::string input;              // an HDF5 file, or "" for the bench case of `size`
    std::string size = "seed";
    nlohmann::json params = nlohmann::json::object(); // set over the input's or case's own
    std::map<std::string, int> tuning;                // the run's --tune
    int repeat = 5;                                   // timed runs after one warm-up
    ProgramOverrides programs{}; // what the row changes in the variant's programs
    std::string sourceSha256;    // of the replaced program text (or the base program's)
    std::string binaryPrefix;    // write each program's compiled output to PREFIX<program>.ext
    bool coldCache = false;      // write a cache-sized scratch buffer before each timed run
    bool probePeaks = false;     // measure the device's peaks again (else: the kept ones)
};

// What a job gave: its figures, or why it has none.
struct LabRow {
    LabJob job;
    std::string description, device;
    // "" ran; "usage", "input", "device", "build", "timeout", "crash": why not.
    std::string failure, message;
    double minMs = 0, medianMs = 0, p20Ms = 0, p80Ms = 0, wallMedianMs = 0, throughput = 0;
    std::string unit;
    Deviation deviation;
    std::map<std::string, double> labelsMedianMs;
    std::vector<ProgramFigures> programs; // what the run built, with its kernels' figures
    std::uint64_t coldCacheBytes = 0;     // written before each timed run (0: warm cache)
    bool cached = false;                  // from the sweep cache, not measured by this run
    RunWork work;                         // the algorithm's declared work of one run
    DevicePeaks peaks;                    // the device's, for the roofline
    std::string workerErrors;             // the worker's stderr (not kept in JSON)
    bool ran() const { return failure.empty(); }
    // clscope-cli's exit code of the row: 0 passed, 1 check failed, 2, 3 or 4 (DESIGN.md §4).
    int exitCode() const;
};

nlohmann::json toJson(const LabJob& job);
LabJob labJobFromJson(const nlohmann::json& j);
nlohmann::json toJson(const LabRow& row);
LabRow labRowFromJson(const nlohmann::json& j);
// Why a row read back (the sweep cache) cannot be one a run gave, "" when it can: it did not
// run, a time that is not finite and positive, times out of order, a check whose verdict is
// not its figures' (issue 52: negative times shown as a measured pass, eligible for --save).
std::string rowDefect(const LabRow& row);

// The value below which `fraction` of the values lie (linear between ranks); 0 when empty.
double percentile(std::vector<double> values, double fraction);

// The host's tunable values (Algorithm::hostTunables) for the job's variant (a user variant's
// base) on the job's device with its input or bench case: what its programs are built with
// before the job's overrides.
TunableValues hostTunablesOf(const LabJob& job);

// Runs a job here: reads the input (or builds the bench case), runs the reference, one
// warm-up (its builds ask for the verbose log where the platform has one) and `repeat` timed
// runs (each after the cache was written over with coldCache), takes the built programs' figures,
// the declared work and the device's peaks (measured when none are kept or probePeaks), and
// compares the last run with the reference. `phase` is told before each step ("reference",
// "warm-up", "run 3"). Errors propagate (UsageError, InputError, DeviceError).
LabRow runLabJob(const LabJob& job, const std::function<void(const std::string&)>& phase);

} // namespace clscope
