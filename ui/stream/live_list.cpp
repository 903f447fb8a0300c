// Where every algorithm's live analyses are registered: add one line per algorithm, e.g.
//   registry.add(spotsLiveSpec()); // ui/spots/spots_live.hpp
#include "ui/spots/spots_live.hpp"
#include "ui/stream/live_analysis.hpp"
#include "ui/xpcs/xpcs_live.hpp"

namespace clscope::ui {

void registerAllLiveAnalyses(LiveAnalysisRegistry& registry) {
    registry.add(spotsLiveSpec());
    registry.add(xpcsLiveSpec());
}

} // namespace clscope::ui
