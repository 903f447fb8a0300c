// clscope-cli average R1.h5 R2.h5 ... [--weights equal|frames|inverse-variance] [--params P.json]
// [rejection rules] -o OUT.h5 (DESIGN.md §4, §5 "Averaging"): correlate results of one q
// partition and one set of lags combined at the level of their sums (core/xpcs/average.hpp),
// the runs the rules reject (core/xpcs/average_rules.hpp) left out and listed in the output.
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "core/output_check.hpp"
#include "core/xpcs/average.hpp"
#include "core/xpcs/average_rules.hpp"
#include "core/xpcs/xpcs_io.hpp"

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

std::vector<ParamSpec> averageSpecs() {
    std::vector<ParamSpec> specs{weightsParamSpec()};
    for (ParamSpec& spec : rejectionParamSpecs())
        specs.push_back(std::move(spec));
    return specs;
}

std::string listed(const std::vector<AverageRun>& runs, const std::vector<Rejection>& rejected) {
    std::string text;
    for (const Rejection& r : rejected)
        text += (text.empty() ? "" : ", ") + runs[r.run].file + " (" + r.rule + " " +
                std::to_string(r.value) + ")";
    return text;
}

// /xpcs/average/files (every input) and /xpcs/average/rejected/{file, rule, value}.
void writeAverageReport(H5Writer& out, const std::vector<AverageRun>& runs,
                        const std::vector<Rejection>& rejected, const std::string& weights) {
    const std::string g = outputGroup + "/average";
    std::vector<std::string> files, rejectedFiles, rules;
    std::vector<double> values;
    for (const AverageRun& run : runs)
        files.push_back(run.file);
    for (const Rejection& r : rejected) {
        rejectedFiles.push_back(runs[r.run].file);
        rules.push_back(r.rule);
        values.push_back(r.value);
    }
    out.writeTexts(g + "/files", files);
    out.writeTexts(g + "/rejected/file", rejectedFiles);
    out.writeTexts(g + "/rejected/rule", rules);
    out.write(g + "/rejected/value", makeArray<double>({values.size()}, values));
    out.setAttribute(g, "weights", weights);
    out.setAttribute(g, "runs_averaged", static_cast<double>(runs.size() - rejected.size()));
}

std::vector<const AverageRun*> accepted(const std::vector<AverageRun>& runs,
                                        const std::vector<Rejection>& rejected) {
    std::vector<bool> out(runs.size(), false);
    for (const Rejection& r : rejected)
        out[r.run] = true;
    std::vector<const AverageRun*> kept;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (!out[i]) kept.push_back(&runs[i]);
    return kept;
}

void average(const AverageArgs& a) {
    ParamSet params(averageSpecs());
    if (!a.paramsFile.empty()) params.mergeFile(a.paramsFile);
    applySpecArgs(params, a.params);
    const Weights weights = weightsNamed(params.text("weights"));
    std::vector<NamedPath> inputs;
    for (const std::string& input : a.inputs)
        inputs.push_back({"RUN", input});
    checkOutputs({{"-o", a.output}}, inputs);
    std::vector<AverageRun> runs;
    for (const std::string& input : a.inputs)
        runs.push_back(readAverageRun(input));
    const std::size_t lags = sharedLags(runs);
    const std::vector<Rejection> rejected = rejectedRuns(runs, lags, rejectionRules(params));
    if (rejected.size() == runs.size())
        throw InputError("every run was rejected, nothing to average: " + listed(runs, rejected));
    Averaged averaged = averageRuns(accepted(runs, rejected), lags, weights);
    averaged.result.parametersJson = params.dump();
    H5Writer out(a.output);
    writeResult(out, averaged.result);
    writeResultSums(out, averaged.sums, outputGroup);
    writeAverageReport(out, runs, rejected, params.text("weights"));
    if (const H5Reader first(runs.front().file); first.hasDataset(outputGroup + "/q"))
        out.copyFrom(first, outputGroup + "/q");
    out.commit();
    std::printf(
        "wrote %s: g2 of %zu bins x %zu lags averaged over %zu of %zu runs (weights %s)%s%s\n",
        a.output.c_str(), averaged.result.binCount(), lags, runs.size() - rejected.size(),
        runs.size(), params.text("weights").c_str(),
        rejected.empty() ? "" : "; rejected: ", listed(runs, rejected).c_str());
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
    addSpecOptions(sub, averageSpecs(), a->params);
    sub->callback([&action, a] { action = [a] { average(*a); }; });
}

} // namespace clscope::cli
