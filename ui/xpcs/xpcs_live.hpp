// XPCS on a live stream (ui/stream): about once a second, multi-tau g2 over every frame received
// so far (runAlgorithm, the multi-tau variant on an OpenCL device, or sparse where the frames
// are mostly zero by the pipeline's live rule, xpcs::liveChoiceOf; the cpu reference on the
// host) with the q-bin labels on screen, drawn for the first bins on a log τ axis.
#pragma once
#include "ui/kit/live_analysis.hpp"

namespace clscope::ui {

LiveAnalysisSpec xpcsLiveSpec();

} // namespace clscope::ui
