// The generic benchmark of clscope-cli bench: each algorithm registers one bench case that
// builds its synthetic dataset for a size, runs every variant (one warm-up, then N runs) and
// reports kernel times from the profiling labels with throughput and deviation from cpu.
#pragma once
#include "gpu/device_info.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace clscope {

struct BenchOptions {
    std::string size = "seed";          // seed | large
    int repeat = 5;                     // timed runs after one warm-up
    bool check = true;                  // compare with the cpu reference
    std::vector<std::string> variants;  // only these (all when empty)
    std::map<std::string, int> tuning;  // -D NAME=VALUE overrides for the kernels
};

// One (variant, device) line of the table.
struct BenchRow {
    std::string algorithm, variant, device, size;
    bool ran = false;
    std::string note;                    // why it did not run, or what was checked
    double minMs = 0, medianMs = 0;      // kernel time per run
    double throughput = 0;               // in unit, from the median
    std::string unit;                    // e.g. "GFLOP/s"
    double maxDeviation = -1;            // max relative deviation from cpu; < 0: not checked
    std::map<std::string, double> labelsMedianMs; // median per profiling label
};

using BenchCase = std::function<std::vector<BenchRow>(const std::vector<DeviceInfo>& devices,
                                                      const BenchOptions& options)>;

class BenchRegistry {
  public:
    static BenchRegistry& instance();
    void add(const std::string& algorithm, BenchCase run);
    bool has(const std::string& algorithm) const { return cases_.count(algorithm) > 0; }
    std::vector<std::string> algorithms() const;
    const BenchCase& find(const std::string& algorithm) const; // UsageError when absent

  private:
    std::map<std::string, BenchCase> cases_;
};

} // namespace clscope
