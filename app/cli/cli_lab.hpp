// The kernel lab's commands (cli_lab.cpp, cli_lab_worker.cpp, cli_lab_diff.cpp), added by
// cli_run.cpp.
#pragma once
#include "app/cli/commands.hpp"

namespace clscope::cli {

void addLabCommand(CLI::App& app, Action& action);
void addLabWorkerCommand(CLI::App& app, Action& action);
void addLabDiffCommand(CLI::App& app, Action& action);

// Thrown by an action that ends with an exit code of its own after reporting (lab: 1, a check
// failed; 4, a build failed or a kernel did not finish).
struct CommandExit {
    int code;
};

} // namespace clscope::cli
