// A scripted GUI run (DESIGN.md §4): `clscope IN.h5 --run ALGO [--variant V] [--device D]
// [--params JSON|FILE] [--frames FIRST:COUNT] --export-results OUT.h5`. The file is open (as
// File ▸ Open opens it, roles assigned as the Data panel does); the algorithm panel is set from
// the options (its own defaults otherwise), its Run pressed, and the result written as Export
// results writes it (the datasets clscope-cli writes, the GUI's extras and a `command_line`
// attribute that reproduces it with clscope-cli). The outcome carries the CLI's exit codes.
#pragma once
#include <QString>
#include <functional>
#include <string>

namespace clscope::ui {

class MainWindow;

struct ScriptedRunRequest {
    std::string algorithm; // registry id (xpcs) or clscope-cli command (correlate)
    QString variant, device, params, frames, exportPath;
};

struct ScriptedOutcome {
    int code = 0;    // 0 done; 2 usage; 3 bad input; 4 device (the CLI's exit codes)
    QString message; // why it failed, one line (stderr)
};

// Start the run on the window's open file; done is called once, from the event loop.
void startScriptedRun(MainWindow& window, const ScriptedRunRequest& request,
                      std::function<void(const ScriptedOutcome&)> done);

} // namespace clscope::ui
