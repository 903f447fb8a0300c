#include "ui/results/run_command.hpp"

#include "core/errors.hpp"

namespace clscope::ui {

QString reproducingCommand(const RunCommand& run) {
    try {
        return QString::fromStdString(commandLine(run));
    } catch (const UsageError& e) {
        return QString("# no command line reproduces this run: %1").arg(e.what());
    }
}

} // namespace clscope::ui
