// The Spots panel's registry entry: dock "Spots", `--demo spots` (spots_demo.cpp), the live
// stream's spots per frame and the Compare dock's difference image.
#include "ui/kit/panel_spec.hpp"
#include "ui/spots/spots_difference_view.hpp"
#include "ui/spots/spots_live.hpp"
#include "ui/spots/spots_panel.hpp"

namespace clscope::ui {

AlgorithmPanelSpec spotsPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<SpotsPanel>("spots", "Spots");
    spec.startDemo = startSpotsDemo;
    spec.liveAnalysis = spotsLiveSpec;
    spec.differenceView = differenceViewOf<spots::SpotsResult, SpotsDifferenceView>;
    return spec;
}

} // namespace clscope::ui
