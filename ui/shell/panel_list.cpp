// Where every algorithm's panel is registered: add one line per algorithm, e.g.
//   registry.add(xpcsPanelSpec());   // ui/xpcs/xpcs_panel.hpp
#include "ui/shell/algorithm_panels.hpp"
#include "ui/xpcs/xpcs_panel.hpp"

namespace clscope::ui {

void registerAllPanels(AlgorithmPanelRegistry& registry) {
    registry.add(xpcsPanelSpec());
}

} // namespace clscope::ui
