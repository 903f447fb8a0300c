// `average` from files to file (DESIGN.md §4 `average`, §5 "Averaging"), the one path
// clscope-cli average and the GUI's Average view both take: the parameters (weights and the
// rejection rules), the verdict on each run, the average of the kept runs, and the averaged
// file written atomically (never over an input) with the report of which runs were left out.
#pragma once
#include "core/params.hpp"
#include "core/xpcs/average.hpp"
#include "core/xpcs/average_rules.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clscope::xpcs {

// weights, then the rejection rules' parameters (their flags: clscope-cli average's options).
std::vector<ParamSpec> averageParamSpecs();

struct AverageOutcome {
    std::size_t lags = 0;             // the lags the runs share (sharedLags)
    std::vector<Rejection> rejected;  // one per rejected run, in the runs' order
    std::string weights;              // the `weights` parameter
    std::string parametersJson;       // every parameter's value
    std::optional<Averaged> averaged; // none when every run was rejected
    std::size_t kept(std::size_t runs) const { return runs - rejected.size(); }
    // The rejection of run i, nullptr when it is kept.
    const Rejection* rejection(std::size_t run) const;
};

// Each file read (readAverageRun: InputError naming the file and dataset).
std::vector<AverageRun> readAverageRuns(const std::vector<std::string>& files);

// The runs checked (sharedLags: InputError naming the first difference), judged by the rules
// and the kept ones averaged with the weights.
AverageOutcome averageWith(const std::vector<AverageRun>& runs, const ParamSet& params);

// "file (rule value), ..." of the rejected runs.
std::string listedRejections(const std::vector<AverageRun>& runs, const AverageOutcome& outcome);

// The averaged result as a correlate result (/xpcs, its sums, /xpcs/q of the first run) with
// /xpcs/average/files and /xpcs/average/rejected/{file, rule, value}; written under a temporary
// name and renamed (H5Writer::commit). UsageError when path is one of the runs' files (or not
// a writable file name); InputError when every run was rejected.
void writeAverage(const std::string& path, const std::vector<AverageRun>& runs,
                  const AverageOutcome& outcome);

} // namespace clscope::xpcs
