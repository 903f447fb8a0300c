// The one Run prologue of the algorithm panels: a Run while one is in progress is refused with
// a warning; the job is made by the panel (its request read from the widgets, checked, turned
// into an AlgorithmRun) and submitted; what stops it goes to the Log and the status bar as
// "TITLE: why". The panel keeps only its request and what its result shows.
#pragma once
#include "ui/jobs/job.hpp"

#include <QString>
#include <functional>
#include <optional>

namespace clscope::ui {

class Workbench;

// "TITLE: why" as an error in the Log and for 8 s in the status bar.
void reportPanelError(Workbench& workbench, const QString& title, const QString& why);

// Refused while `busy` ("TITLE: a run is in progress; ..."), else makeJob()'s job submitted:
// what makeJob throws is reported (reportPanelError); it returns nothing when it said why itself.
// Whether the job was submitted (the panel then shows it running).
bool submitPanelRun(Workbench& workbench, const QString& title, bool busy,
                    const std::function<std::optional<Job>()>& makeJob);

} // namespace clscope::ui
