// The clscope-cli command line that reproduces a GUI run, as its result tabs and exports carry
// it (gpu/command_line.hpp builds it from the algorithm's roles and parameter specs).
#pragma once
#include "gpu/command_line.hpp"

#include <QString>

namespace clscope::ui {

// The command line of the run; when it cannot be one (e.g. a role held in memory), a line
// starting with "#" that says why.
QString reproducingCommand(const RunCommand& run);

} // namespace clscope::ui
