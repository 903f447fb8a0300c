// The one place algorithm panels plug into the workbench. Each algorithm adds one
// AlgorithmPanelSpec in registerAllPanels() (ui/shell/panel_list.cpp); the main window makes
// a dock per spec, and `clscope --demo ALGO` calls the spec's startDemo.
#pragma once
#include <QString>
#include <functional>
#include <string>
#include <vector>

class QWidget;

namespace clscope::ui {

class Workbench;

struct AlgorithmPanelSpec {
    std::string algorithm; // xpcs, spots, cluster, rbf: the variant registry's name
    QString title;         // dock title, e.g. "XPCS"
    // The panel's widget (parameters, Run button); it keeps the Workbench to submit jobs,
    // add overlays, result tabs and read the dataset roles.
    std::function<QWidget*(Workbench& workbench, QWidget* parent)> createPanel;
    // --demo: generate the synthetic dataset (Workbench::generateAndOpen), then run on the
    // current device. The screenshot is taken once the job runner is idle again.
    std::function<void(Workbench& workbench)> startDemo;
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
