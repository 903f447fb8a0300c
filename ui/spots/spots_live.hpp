// Spots on a live stream (ui/stream): every frame as it comes through runAlgorithm with the
// chosen device and variant and the Spots panel's parameters (the defaults without the panel),
// its spot count on the strip chart and its boxes and centroids on the frame shown.
#pragma once
#include "ui/kit/live_analysis.hpp"

namespace clscope::ui {

LiveAnalysisSpec spotsLiveSpec();

} // namespace clscope::ui
