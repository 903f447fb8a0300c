#include "ui/jobs/algorithm_run.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/scale/budget.hpp"
#include "gpu/scale/passes.hpp"
#include "gpu/variant/user_variants.hpp"

#include <algorithm>
#include <cstdio>

namespace clscope::ui {

DeviceInfo variantDevice(const Algorithm& algorithm, const std::string& variant,
                         const DeviceInfo& chosen) {
    const auto variants = algorithm.variants();
    const auto it = std::find_if(variants.begin(), variants.end(),
                                 [&](const VariantEntry& v) { return v.info.id == variant; });
    const bool host = it != variants.end() && it->info.kind == VariantKind::Host;
    return host && !chosen.isHost() ? hostDevice() : chosen;
}

std::string reproducingLine(const RunCommand& command) {
    try {
        return commandLine(command);
    } catch (const UsageError& e) {
        return std::string("# no command line reproduces this run: ") + e.what();
    }
}

namespace {

std::string kernelText(double ms) {
    char text[64];
    std::snprintf(text, sizeof text, ", kernel %.3f ms", ms);
    return text;
}

} // namespace

Job makeRunJob(AlgorithmRun run, std::function<void(const RunDelivery&)> deliver) {
    if (!run.algorithm) throw UsageError("no algorithm to run");
    const Algorithm& algorithm = *run.algorithm;
    Job job;
    job.algorithm = algorithm.id();
    job.variant = run.command.variant;
    job.watchKernels = isUserVariantId(job.variant);
    job.device = variantDevice(algorithm, job.variant, run.chosen);
    job.title = job.algorithm + " " + job.variant + " on " + job.device.spec;
    run.command.algorithm = algorithm.id();
    run.command.device = job.device.spec;
    const std::string command = reproducingLine(run.command);
    job.work = [&algorithm, run = std::move(run), command, deliver = std::move(deliver),
                device = job.device](const Progress& progress) {
        const RunCommand& c = run.command;
        std::shared_ptr<const AlgorithmInput> input = run.input;
        std::shared_ptr<const AlgorithmResult> result;
        std::string parts;
        const std::vector<DeviceInfo> devices{device};
        const std::uint64_t budget = defaultMemoryBudget(devices);
        const bool whole = input || run.wholeInput == WholeInput::Always ||
                           (run.wholeInput == WholeInput::IfItFits &&
                            fitsWhole(algorithm, c.sources, c.params, budget, c.variant));
        if (whole) {
            if (!input) input = algorithm.readFor(c.sources, c.params, c.variant);
            progress.checkCancel();
            result =
                runAlgorithm(algorithm, {device, c.variant, input, c.params, c.tuning}, progress);
        } else { // the command line's runner, with its default budget
            BudgetedRun budgeted =
                runWithinBudget(algorithm, {device, c.variant, nullptr, c.params, c.tuning},
                                c.sources, devices, budget, progress);
            input = std::move(budgeted.input), result = std::move(budgeted.result);
            if (!input) parts = "; " + budgeted.partsText();
        }
        JobOutcome outcome;
        outcome.timings = result->info.timings;
        outcome.entries = result->info.entries, outcome.wallMs = result->info.wallMs;
        outcome.summary = result->summary() + kernelText(result->info.kernelMs) + parts;
        if (deliver)
            outcome.deliver = [deliver,
                               delivery = RunDelivery{input, result, command,
                                                      layoutExport(algorithm, c, input, result)}] {
                deliver(delivery);
            };
        return outcome;
    };
    return job;
}

} // namespace clscope::ui
