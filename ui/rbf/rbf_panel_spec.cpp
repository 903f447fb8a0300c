// The rbf panel's registry entry: dock "RBF", `--demo rbf` (rbf_demo.cpp) and the Compare dock's
// |f − f_ref| difference view.
#include "ui/kit/panel_spec.hpp"
#include "ui/rbf/rbf_panel.hpp"

namespace clscope::ui {

AlgorithmPanelSpec rbfPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<RbfPanel>("rbf", "RBF");
    spec.startDemo = startRbfDemo;
    spec.differenceView = differenceViewOf<rbf::RbfResult, RbfDifferenceView>;
    return spec;
}

} // namespace clscope::ui
