#include "ui/kit/live_analysis.hpp"

#include "ui/kit/algorithm_panels.hpp"

namespace clscope::ui {

LiveAnalysisRegistry& LiveAnalysisRegistry::instance() {
    static LiveAnalysisRegistry registry = [] {
        LiveAnalysisRegistry r;
        for (const AlgorithmPanelSpec& panel : AlgorithmPanelRegistry::instance().panels())
            if (panel.liveAnalysis) r.add(panel.liveAnalysis());
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
