#include "ui/results/run_command.hpp"

#include "ui/jobs/algorithm_run.hpp"

namespace clscope::ui {

QString reproducingCommand(const RunCommand& run) {
    return QString::fromStdString(reproducingLine(run));
}

} // namespace clscope::ui
