// The rules by which `average` leaves a run out (DESIGN.md §5 "Averaging"), each a parameter
// with a default, checked in this order (a run is rejected by the first that fires):
//   baseline         the mean g2 over the bins and the last `baseline_fraction` of the shared
//                    lags (at least one) outside [baseline_min, baseline_max];
//   intensity_jump   the largest change of the mean intensity (all bins' pixels) between the
//                    windows of `intensity_window` × T frames just before and just after a
//                    frame, over the run's mean intensity, above intensity_jump_max;
//   intensity_drift  the change between the first and the last such window, over the mean,
//                    above intensity_drift_max;
//   zscore           the run's distance from the runs' median g2 (the root mean square over
//                    the bins and shared lags of g2 − the runs' median g2 there) further above
//                    the median of the runs' distances than zscore_max robust z-scores:
//                    0.6745 (d − median) / MAD (MAD the median absolute deviation of the runs'
//                    distances; the rule needs 3 runs and a MAD above 0).
// The value written beside a rejection is that statistic (baseline mean, relative jump or
// drift, z-score).
#pragma once
#include "core/params.hpp"
#include "core/xpcs/average_runs.hpp"

#include <string>
#include <vector>

namespace clscope::xpcs {

struct RejectionRules {
    double baselineMin = 0.95, baselineMax = 1.05, baselineFraction = 0.1;
    double intensityWindow = 0.1, jumpMax = 0.1, driftMax = 0.1;
    double zscoreMax = 3.5;
};

// The rules' parameters (flags --baseline-min, ...), with the defaults above.
std::vector<ParamSpec> rejectionParamSpecs();
RejectionRules rejectionRules(const ParamSet& params);

struct Rejection {
    std::size_t run = 0; // index into the runs
    std::string rule;    // baseline, intensity_jump, intensity_drift or zscore
    double value = 0;    // the statistic that broke the rule
};

// One rejection per rejected run, in the runs' order; `lags`: the lags the runs share.
std::vector<Rejection> rejectedRuns(const std::vector<AverageRun>& runs, std::size_t lags,
                                    const RejectionRules& rules);

} // namespace clscope::xpcs
