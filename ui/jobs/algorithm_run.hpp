// One run of a registered algorithm as every panel starts it (Qt-free, shared by the panels):
// the device its variant runs on (the host for a host variant), the job's title, the clscope-cli
// command line that reproduces it, and the job that reads the input on the job runner's worker
// thread (unless the panel already holds it) and runs it through runAlgorithm().
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/command_line.hpp"
#include "ui/jobs/job.hpp"

#include <functional>
#include <memory>
#include <string>

namespace clscope::ui {

struct AlgorithmRun {
    const Algorithm* algorithm = nullptr;
    // Sources, variant and parameters; `device` is set from the chosen device by makeRunJob.
    RunCommand command;
    DeviceInfo chosen; // the device picked in the Device panel
    // An input the panel holds already (a live re-run, generated sources): not read again.
    std::shared_ptr<const AlgorithmInput> input;
};

// What a finished run hands back to its panel on the GUI thread.
struct RunDelivery {
    std::shared_ptr<const AlgorithmInput> input;
    std::shared_ptr<const AlgorithmResult> result;
    std::string command; // the reproducing command line, or "# ..." saying why there is none
};

// The device `variant` of `algorithm` runs on when `chosen` is picked: the host for host
// variants, else `chosen` (an unknown variant: `chosen`, and runAlgorithm says why).
DeviceInfo variantDevice(const Algorithm& algorithm, const std::string& variant,
                         const DeviceInfo& chosen);

// The clscope-cli command line of a run; "# no command line reproduces this run: WHY" when a
// source is held in memory.
std::string reproducingLine(const RunCommand& command);

// The job of a run: title "ALGORITHM VARIANT on DEVICE", the input read with the algorithm's
// own Algorithm::read (sources and parameters of run.command) unless run.input is given, the
// run through runAlgorithm, a summary with the kernel time; `deliver` runs on the GUI thread.
Job makeRunJob(AlgorithmRun run, std::function<void(const RunDelivery&)> deliver);

} // namespace clscope::ui
