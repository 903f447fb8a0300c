// Where every algorithm's panel is registered: add one line per algorithm, e.g.
//   registry.add(xpcsPanelSpec());   // ui/xpcs/xpcs_panel.hpp
#include "gpu/algorithm.hpp"
#include "ui/cluster/cluster_panel.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/rbf/rbf_panel.hpp"
#include "ui/spots/spots_panel.hpp"
#include "ui/xpcs/xpcs_panel.hpp"

namespace clscope::ui {

AlgorithmPanelSpec fileAlgorithmPanelSpec(const std::string& id); // file_algorithm_panel.cpp

void registerAllPanels(AlgorithmPanelRegistry& registry) {
    registry.add(xpcsPanelSpec());
    registry.add(spotsPanelSpec());
    registry.add(clusterPanelSpec());
    registry.add(rbfPanelSpec());
    // Registered algorithms without their own panel yet: run and compared from the file.
    for (const std::string& id : AlgorithmRegistry::instance().ids())
        if (!registry.find(id)) registry.add(fileAlgorithmPanelSpec(id));
}

} // namespace clscope::ui
