#include "ui/stream/live_analysis.hpp"

namespace clscope::ui {

LiveAnalysisRegistry& LiveAnalysisRegistry::instance() {
    static LiveAnalysisRegistry registry = [] {
        LiveAnalysisRegistry r;
        registerAllLiveAnalyses(r);
        return r;
    }();
    return registry;
}

void LiveAnalysisRegistry::add(LiveAnalysisSpec spec) {
    for (LiveAnalysisSpec& existing : specs_)
        if (existing.algorithm == spec.algorithm) {
            existing = std::move(spec);
            return;
        }
    specs_.push_back(std::move(spec));
}

} // namespace clscope::ui
