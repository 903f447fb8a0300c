// azint on a live stream (ui/stream): about once a second, I(q) of the newest frames received
// (runAlgorithm on the device and variant chosen, the Azint panel's parameters) drawn as the
// newest frame's profile beside the mean of the last ones. Applies where the Azint panel names
// a geometry file (poni or expt): a stream's start message carries none.
#pragma once
#include "ui/kit/live_analysis.hpp"

namespace clscope::ui {

LiveAnalysisSpec azintLiveSpec();

} // namespace clscope::ui
