// The XPCS panel's registry entry: dock "XPCS", `--demo xpcs` and `--demo compare`
// (xpcs_demo.cpp), the live stream's multi-tau g2 and the Compare dock's difference view.
#include "ui/kit/panel_spec.hpp"
#include "ui/xpcs/xpcs_difference_view.hpp"
#include "ui/xpcs/xpcs_live.hpp"
#include "ui/xpcs/xpcs_panel.hpp"

namespace clscope::ui {

AlgorithmPanelSpec xpcsPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<XpcsPanel>("xpcs", "XPCS");
    spec.startDemo = startXpcsDemo;
    spec.startCompareDemo = startXpcsCompareDemo;
    spec.liveAnalysis = xpcsLiveSpec;
    spec.differenceView = differenceViewOf<xpcs::XpcsResult, XpcsDifferenceView>;
    return spec;
}

} // namespace clscope::ui
