// clscope-cli average R1.h5 R2.h5 ... [--weights equal|frames|inverse-variance] [--params P.json]
// [rejection rules] -o OUT.h5 (DESIGN.md §4, §5 "Averaging"): correlate results of one q
// partition and one set of lags combined at the level of their sums (core/xpcs/average.hpp),
// the runs the rules reject (core/xpcs/average_rules.hpp) left out and listed in the output;
// core/xpcs/average_file.hpp does it all, as for the GUI's Average view.
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "core/output_check.hpp"
#include "core/xpcs/average_file.hpp"

#include <cstdio>
#include <memory>

namespace clscope::cli {

namespace {

using namespace xpcs;

struct AverageArgs {
    std::vector<std::string> inputs;
    std::string output, paramsFile;
    SpecArgs params;
};

void average(const AverageArgs& a) {
    ParamSet params(averageParamSpecs());
    if (!a.paramsFile.empty()) params.mergeFile(a.paramsFile);
    applySpecArgs(params, a.params);
    weightsNamed(params.text("weights"));
    std::vector<NamedPath> inputs;
    for (const std::string& input : a.inputs)
        inputs.push_back({"RUN", input});
    checkOutputs({{"-o", a.output}}, inputs); // before reading the runs
    const std::vector<AverageRun> runs = readAverageRuns(a.inputs);
    const AverageOutcome outcome = averageWith(runs, params);
    writeAverage(a.output, runs, outcome); // the GUI's Average view saves through it too
    const std::string rejected = listedRejections(runs, outcome);
    std::printf(
        "wrote %s: g2 of %zu bins x %zu lags averaged over %zu of %zu runs (weights %s)%s%s\n",
        a.output.c_str(), outcome.averaged->result.binCount(), outcome.lags,
        outcome.kept(runs.size()), runs.size(), outcome.weights.c_str(),
        rejected.empty() ? "" : "; rejected: ", rejected.c_str());
}

} // namespace

void addAverageCommand(CLI::App& app, Action& action) {
    auto a = std::make_shared<AverageArgs>();
    auto* sub = app.add_subcommand(
        "average", "Average correlate results of one q partition and lags, bad runs left out");
    sub->add_option("runs", a->inputs, "correlate results (HDF5)")->required();
    sub->add_option("-o,--output", a->output, "Output HDF5 file")->required();
    sub->add_option("--params", a->paramsFile,
                    "Parameters: a JSON file, or inline JSON starting with '{'");
    addSpecOptions(sub, averageParamSpecs(), a->params);
    sub->callback([&action, a] { action = [a] { average(*a); }; });
}

} // namespace clscope::cli
