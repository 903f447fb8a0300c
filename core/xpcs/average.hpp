// `average` (DESIGN.md §5 "Averaging"): runs of one q partition and one set of lags combined at
// the level of the correlator's sums (core/xpcs/result_sums.hpp). Per bin and lag, run i's
// sums (pairs P_i, Σ N, Σ S, Σ S', Σ S S') enter scaled by c_i = ω_i / P_i (its means per
// pair, weighted by ω_i), and g2 is the run's normalisation of the combined sums:
//   equal             ω_i = 1: each run counts once;
//   frames            ω_i = P_i (T_k − m: the run's frames at that level less the lag), i.e. the
//                     sums simply added: the g2 of all the runs' pairs together, exact;
//   inverse-variance  ω_i = 1 / g2_err_i² (equal at a bin and lag where a run's g2_err is 0 or
//                     not finite).
// g2_err is propagated from the runs' g2_err as independent: √Σ α_i² g2_err_i², α_i = ∂g2/∂g2_i
// = g2 c_i Σ N_i / (g2_i Σ_j c_j Σ N_j) (frame: c_i Σ S S'_i / Σ_j c_j Σ S S'_j). The result's
// sums are the combined (scaled) sums and its intensity against time the runs' one after the
// other, so an averaged file is a correlate result like any other.
#pragma once
#include "core/params.hpp"
#include "core/xpcs/average_runs.hpp"

#include <string>
#include <vector>

namespace clscope::xpcs {

enum class Weights { Equal, Frames, InverseVariance };
Weights weightsNamed(const std::string& name); // UsageError naming the text otherwise
// The `weights` parameter (flag --weights; default equal).
ParamSpec weightsParamSpec();

struct Averaged {
    Result result;
    ResultSums sums;
};

// The runs (at least one; sharedLags checked) combined over their first `lags` lags.
Averaged averageRuns(const std::vector<const AverageRun*>& runs, std::size_t lags, Weights weights);

} // namespace clscope::xpcs
