// The runs `average` combines (DESIGN.md §5 "Averaging"): correlate results read back with
// their sums, and the check that they share one q partition and one set of lags.
#pragma once
#include "core/xpcs/result_sums.hpp"
#include "core/xpcs/xpcs.hpp"

#include <string>
#include <vector>

namespace clscope::xpcs {

struct AverageRun {
    std::string file;
    Result result;   // /xpcs as correlate wrote it
    ResultSums sums; // /xpcs/sums/* and /xpcs/intensity_vs_time
};

// InputError naming the file and dataset when it is not a correlate result with sums.
AverageRun readAverageRun(const std::string& file);

// The lags every run holds (the first L of each: a shorter run has fewer lags); InputError
// naming the first difference (file, bin or lag, both values) when the runs' q partitions
// (labels, pixel counts) or lags (mode, τ and its units, lag frames, levels) or g2
// normalisations differ.
std::size_t sharedLags(const std::vector<AverageRun>& runs);

} // namespace clscope::xpcs
