// The azint panel's registry entry: dock "Azint" and `--demo azint` (azint_demo.cpp); Compare
// shows its table of deviations (no picture of its own).
#include "ui/azint/azint_live.hpp"
#include "ui/azint/azint_panel.hpp"
#include "ui/kit/panel_spec.hpp"

namespace clscope::ui {

AlgorithmPanelSpec azintPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<AzintPanel>("azint", "Azint");
    spec.startDemo = startAzintDemo;
    spec.liveAnalysis = azintLiveSpec;
    return spec;
}

} // namespace clscope::ui
