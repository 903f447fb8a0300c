// One run of a registered algorithm as every panel starts it (Qt-free, shared by the panels):
// the device its variant runs on (the host for a host variant), the job's title, the clscope-cli
// command line that reproduces it, and the job that runs it on the job runner's worker thread the
// way clscope-cli runs it (runWithinBudget: through the streaming pipeline, or in passes, within
// the default memory budget), unless the panel holds the input or its views take it whole
// (WholeInput).
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/command_line.hpp"
#include "ui/jobs/job.hpp"
#include "ui/jobs/layout_export.hpp"

#include <functional>
#include <memory>
#include <string>

namespace clscope::ui {

// Whether a panel's views take the input whole (RunDelivery::input).
enum class WholeInput {
    Never,    // run as the command line runs it (streamed, in passes or whole)
    IfItFits, // read whole when it fits the memory budget (no passes), else as the command line
    Always,   // read whole: the views cannot do without it
};

struct AlgorithmRun {
    const Algorithm* algorithm = nullptr;
    // Sources, variant and parameters; `device` is set from the chosen device by makeRunJob.
    RunCommand command;
    DeviceInfo chosen; // the device picked in the Device panel
    // An input the panel holds already (a live re-run, generated sources): not read again.
    std::shared_ptr<const AlgorithmInput> input;
    WholeInput wholeInput = WholeInput::Never;
};

// What a finished run hands back to its panel on the GUI thread.
struct RunDelivery {
    std::shared_ptr<const AlgorithmInput> input; // null when the run streamed or ran in passes
    std::shared_ptr<const AlgorithmResult> result;
    std::string command;  // the reproducing command line, or "# ..." saying why there is none
    LayoutExport layouts; // the result in the algorithm's other output layouts
};

// The device `variant` of `algorithm` runs on when `chosen` is picked: the host for host
// variants, else `chosen` (an unknown variant: `chosen`, and runAlgorithm says why).
DeviceInfo variantDevice(const Algorithm& algorithm, const std::string& variant,
                         const DeviceInfo& chosen);

// The clscope-cli command line of a run; "# no command line reproduces this run: WHY" when a
// source is held in memory.
std::string reproducingLine(const RunCommand& command);

// The job of a run: title "ALGORITHM VARIANT on DEVICE"; the run of run.input, or of the input
// read whole as run.wholeInput asks, through runAlgorithm, else through runWithinBudget from
// run.command's sources as the command line runs it; a summary with the kernel time (and the
// batches or passes of a run that streamed or ran in them); `deliver` runs on the GUI thread.
Job makeRunJob(AlgorithmRun run, std::function<void(const RunDelivery&)> deliver);

} // namespace clscope::ui
