// The one place algorithm panels plug into the workbench. Each algorithm adds one
// AlgorithmPanelSpec (ALGOPanelSpec() in ui/ALGO/ALGO_panel.hpp, its name in ui/CMakeLists.txt's
// CLSCOPE_PANELS: registerAllPanels() is generated from ui/app/panel_list.cpp.in); the main
// window makes a dock per spec, and `clscope --demo ALGO` calls the spec's startDemo.
#pragma once
#include "core/params.hpp"
#include "gpu/command_line.hpp"
#include "ui/kit/live_analysis.hpp"

#include <QString>
#include <functional>
#include <memory>
#include <string>
#include <vector>

class QWidget;

namespace clscope {
class AlgorithmInput;
class AlgorithmResult;
} // namespace clscope

namespace clscope::ui {

class Workbench;

// What the comparison view runs on: the input the panel's widgets describe now, its
// parameters, and the run as clscope-cli names it (algorithm, sources, parameters; each row's
// device and variant go in at export: the command line of each compared run). An empty
// command (no sources) leaves the rows' command lines empty.
struct ComparisonInput {
    std::shared_ptr<const AlgorithmInput> input;
    ParamSet params;
    RunCommand command;
};

// What a scripted GUI run (`clscope IN.h5 --run ALGO ...`, ui/app/scripted_run.hpp) sets on
// a panel before pressing its Run: the parameters (defaults merged with --params), the frame
// range and the variant ("" : the panel's own).
struct ScriptedSettings {
    ParamSet params;
    std::uint64_t firstFrame = 0, frameCount = 0; // count 0: to the last frame
    std::string variant;
};

struct AlgorithmPanelSpec {
    std::string algorithm; // xpcs, spots, cluster, rbf: the variant registry's name
    QString title;         // dock title, e.g. "XPCS"
    // The panel's widget (parameters, Run button); it keeps the Workbench to submit jobs,
    // add overlays, result tabs and read the dataset roles.
    std::function<QWidget*(Workbench& workbench, QWidget* parent)> createPanel;
    // --demo: generate the synthetic dataset (Workbench::generateAndOpen), then run on the
    // current device. The screenshot is taken once the job runner is idle again.
    std::function<void(Workbench& workbench)> startDemo;
    // `clscope --demo compare`: the demo data set, then every variant on every device in the
    // Compare dock (the first algorithm that has one).
    std::function<void(Workbench& workbench)> startCompareDemo;
    // The comparison view (ui/compare): the input to compare variants on, built from what is
    // on screen (throws InputError saying what is missing). Empty: no comparison.
    std::function<ComparisonInput(Workbench& workbench)> comparisonInput;
    // The algorithm's own picture of how two runs differ (a = the chosen run, b = the one it
    // is compared with); the comparison view owns the widget. Empty: the table only.
    std::function<QWidget*(const AlgorithmResult& a, const AlgorithmResult& b)> differenceView;
    // A scripted run: set the panel from `settings`, press its Run and call done(true) once
    // its result tabs are there (done(false) when the run did not start or failed: the
    // reason went to the Log and the job runner's failed signal). Throws UsageError or
    // InputError for settings the panel cannot take. panelSpecOf fills it for every panel
    // class (scriptedRunOf, ui/kit/panel_spec.hpp). Empty: not scriptable.
    std::function<void(Workbench& workbench, const ScriptedSettings& settings,
                       std::function<void(bool ok)> done)>
        scriptedRun;
    // What a live stream's view runs for this algorithm (ui/stream); empty: nothing.
    std::function<LiveAnalysisSpec()> liveAnalysis;
};

class AlgorithmPanelRegistry {
  public:
    static AlgorithmPanelRegistry& instance();
    void add(AlgorithmPanelSpec spec);
    const std::vector<AlgorithmPanelSpec>& panels() const { return panels_; }
    const AlgorithmPanelSpec* find(const std::string& algorithm) const;

  private:
    std::vector<AlgorithmPanelSpec> panels_;
};

// Lists every algorithm's panel (one line each, like gpu/registry.cpp for variants).
void registerAllPanels(AlgorithmPanelRegistry& registry);

} // namespace clscope::ui
