// clscope-cli bench --cold: each case's first run in a fresh process (clscope-cli bench run
// again as a child, its process's cache of programs empty), with the disk cache of compiled
// programs off (CLSCOPE_PROGRAM_CACHE=0: every program built from source) and as it is (the
// programs the bench itself just built: loaded), beside the warm figures.
#pragma once
#include "gpu/bench.hpp"

#include <string>
#include <vector>

namespace clscope::cli {

// What a child bench repeats of its parent's arguments.
struct ColdBenchArgs {
    std::string size, split;
    std::vector<std::string> devices, tuning;
    double kernelTimeout = 30;
};

// Fills coldFirstMs and warmFirstMs of the rows that ran: two children an algorithm, each
// `bench ALGO --repeat 1 --no-check --json` for the rows' variants and the same devices.
void measureColdRuns(std::vector<BenchRow>& rows, const ColdBenchArgs& args);

// "first run, fresh process: X ms (cache cold) / Y ms (cache warm)", a line a measured row.
void printColdRuns(const std::vector<BenchRow>& rows);

} // namespace clscope::cli
