#include "core/xpcs/average_file.hpp"

#include "core/errors.hpp"
#include "core/output_check.hpp"
#include "core/xpcs/xpcs_io.hpp"

namespace clscope::xpcs {

namespace {

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

// /xpcs/average/files (every input) and /xpcs/average/rejected/{file, rule, value}.
void writeAverageReport(H5Writer& out, const std::vector<AverageRun>& runs,
                        const AverageOutcome& o) {
    const std::string g = outputGroup + "/average";
    std::vector<std::string> files, rejectedFiles, rules;
    std::vector<double> values;
    for (const AverageRun& run : runs)
        files.push_back(run.file);
    for (const Rejection& r : o.rejected) {
        rejectedFiles.push_back(runs[r.run].file);
        rules.push_back(r.rule);
        values.push_back(r.value);
    }
    out.writeTexts(g + "/files", files);
    out.writeTexts(g + "/rejected/file", rejectedFiles);
    out.writeTexts(g + "/rejected/rule", rules);
    out.write(g + "/rejected/value", makeArray<double>({values.size()}, values));
    out.setAttribute(g, "weights", o.weights);
    out.setAttribute(g, "runs_averaged", static_cast<double>(o.kept(runs.size())));
}

} // namespace

std::vector<ParamSpec> averageParamSpecs() {
    std::vector<ParamSpec> specs{weightsParamSpec()};
    for (ParamSpec& spec : rejectionParamSpecs())
        specs.push_back(std::move(spec));
    return specs;
}

const Rejection* AverageOutcome::rejection(std::size_t run) const {
    for (const Rejection& r : rejected)
        if (r.run == run) return &r;
    return nullptr;
}

std::vector<AverageRun> readAverageRuns(const std::vector<std::string>& files) {
    std::vector<AverageRun> runs;
    for (const std::string& file : files)
        runs.push_back(readAverageRun(file));
    return runs;
}

AverageOutcome averageWith(const std::vector<AverageRun>& runs, const ParamSet& params) {
    AverageOutcome o;
    o.weights = params.text("weights");
    o.parametersJson = params.dump();
    const Weights weights = weightsNamed(o.weights);
    o.lags = sharedLags(runs);
    o.rejected = rejectedRuns(runs, o.lags, rejectionRules(params));
    if (o.rejected.size() == runs.size()) return o;
    o.averaged = averageRuns(accepted(runs, o.rejected), o.lags, weights);
    o.averaged->result.parametersJson = o.parametersJson;
    return o;
}

std::string listedRejections(const std::vector<AverageRun>& runs, const AverageOutcome& o) {
    std::string text;
    for (const Rejection& r : o.rejected)
        text += (text.empty() ? "" : ", ") + runs[r.run].file + " (" + r.rule + " " +
                std::to_string(r.value) + ")";
    return text;
}

void writeAverage(const std::string& path, const std::vector<AverageRun>& runs,
                  const AverageOutcome& o) {
    std::vector<NamedPath> inputs;
    for (const AverageRun& run : runs)
        inputs.push_back({"RUN", run.file});
    checkOutputs({{"-o", path}}, inputs);
    if (!o.averaged)
        throw InputError("every run was rejected, nothing to average: " +
                         listedRejections(runs, o));
    H5Writer out(path);
    writeResult(out, o.averaged->result);
    writeResultSums(out, o.averaged->sums, outputGroup);
    writeAverageReport(out, runs, o);
    if (const H5Reader first(runs.front().file); first.hasDataset(outputGroup + "/q"))
        out.copyFrom(first, outputGroup + "/q");
    out.commit();
}

} // namespace clscope::xpcs
