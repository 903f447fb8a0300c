#include "ui/kit/algorithm_panels.hpp"

namespace clscope::ui {

AlgorithmPanelRegistry& AlgorithmPanelRegistry::instance() {
    static AlgorithmPanelRegistry registry = [] {
        AlgorithmPanelRegistry r;
        registerAllPanels(r);
        return r;
    }();
    return registry;
}

void AlgorithmPanelRegistry::add(AlgorithmPanelSpec spec) {
    for (AlgorithmPanelSpec& existing : panels_)
        if (existing.algorithm == spec.algorithm) {
            existing = std::move(spec);
            return;
        }
    panels_.push_back(std::move(spec));
}

const AlgorithmPanelSpec* AlgorithmPanelRegistry::find(const std::string& algorithm) const {
    for (const AlgorithmPanelSpec& spec : panels_)
        if (spec.algorithm == algorithm) return &spec;
    return nullptr;
}

} // namespace clscope::ui
