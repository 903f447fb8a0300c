// The one benchmark loop of clscope-cli bench, for every registered algorithm: builds the
// algorithm's bench case for a size, runs each chosen variant on each device (one warm-up,
// then N timed runs), reports kernel time from the timing records' kernel labels, wall time,
// throughput and the deviation from the reference variant.
#pragma once
#include "core/progress.hpp"
#include "gpu/algorithm.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope {

struct BenchOptions {
    std::string size = "seed";         // one of the algorithm's benchSizes()
    int repeat = 5;                    // timed runs after one warm-up
    bool check = true;                 // compare with the reference variant
    std::vector<std::string> variants; // only these (all when empty); unknown ids: UsageError
    std::map<std::string, int> tuning; // -D NAME=VALUE overrides for the kernels
    SplitRule split = SplitRule::Auto; // over several devices
};

// One (variant, device) line of the table.
struct BenchRow {
    std::string algorithm, variant, device, size, description;
    bool ran = false;
    std::string note;               // why it did not run, or what was checked
    double minMs = 0, medianMs = 0; // kernel time per run
    double wallMedianMs = 0;        // wall time of run(), setup and transfers included
    double firstWallMs = 0;         // wall of the warm-up run: program builds, first touches
    // bench --cold: the first run's wall in a fresh process, the disk cache of compiled
    // programs off (cold) and on (warm); 0 when not measured.
    double coldFirstMs = 0, warmFirstMs = 0;
    double throughput = 0; // in unit, from the median kernel time
    std::string unit;      // e.g. "GFLOP/s"
    bool checked = false;
    Deviation deviation;                          // against the reference, when checked
    std::map<std::string, double> labelsMedianMs; // median per profiling label
    // BenchCase::uploadBytes / the first device's pinnedUploadGBps (0: not measured).
    double h2dGBps = 0, transferBoundMs = 0;
};

// Host-to-device bandwidth from pinned host memory (GB/s, best of 3 writes of 256 MiB after a
// warm-up), measured once per device and process; 0 for devices other than GPUs.
double pinnedUploadGBps(const DeviceInfo& device);

// Rows of one algorithm over the devices; the reference runs once on the host first.
std::vector<BenchRow> benchAlgorithm(const Algorithm& algorithm,
                                     const std::vector<DeviceInfo>& devices,
                                     const BenchOptions& options, const Progress& progress = {});
// The same where an entry may be several devices sharing one run (runOnDevices).
std::vector<BenchRow> benchAlgorithm(const Algorithm& algorithm,
                                     const std::vector<std::vector<DeviceInfo>>& deviceSets,
                                     const BenchOptions& options, const Progress& progress = {});

} // namespace clscope
