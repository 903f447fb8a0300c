// Spots on a live stream (ui/stream): every frame as it comes through runAlgorithm with the
// chosen device and variant and the Spots panel's parameters (the defaults without the panel),
// its boxes and centroids on the frame shown, and per frame, as DIALS' per-image analysis gives
// them (core/spots/per_image.hpp, what `clscope-cli spots --expt` writes): the spots, the mean
// intensity of the spots off the ice rings and the estimated d_min — d_min with a geometry only
// (the start message's, else the Spots panel's experiment list).
#pragma once
#include "ui/kit/live_analysis.hpp"

namespace clscope::ui {

LiveAnalysisSpec spotsLiveSpec();

} // namespace clscope::ui
