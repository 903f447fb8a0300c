// A clscope result file read back for its panel (Workbench::openFile, Qt-free): the job that
// reads the algorithm's output group through its result reader facet (Algorithm::readResult)
// on the job runner's worker thread and hands the panel what a run's job hands it — the result,
// the input when the panel's views need it (read from the sources the result's provenance
// names), the command line of the run that made it — plus that run's command.
#pragma once
#include "ui/jobs/algorithm_run.hpp"

#include <functional>
#include <string>

namespace clscope::ui {

struct StoredDelivery {
    RunDelivery delivery;
    RunCommand command; // the stored run: its parameters, sources, device and variant
};

// The job reading `algorithm`'s result from `file`. input: Never, the result alone; Always, the
// run's input too (InputError saying so when it cannot be read); IfItFits, the input when it
// can be read, else none. `deliver` runs on the GUI thread.
Job storedResultJob(const Algorithm& algorithm, const std::string& file, WholeInput input,
                    std::function<void(const StoredDelivery&)> deliver);

} // namespace clscope::ui
