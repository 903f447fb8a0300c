// The Cluster panel's registry entry: dock "Cluster", `--demo cluster` (cluster_demo.cpp) and the
// Compare dock's difference view.
#include "ui/cluster/cluster_difference_view.hpp"
#include "ui/cluster/cluster_panel.hpp"
#include "ui/kit/panel_spec.hpp"

namespace clscope::ui {

AlgorithmPanelSpec clusterPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<ClusterPanel>("cluster", "Cluster");
    spec.startDemo = startClusterDemo;
    spec.differenceView = makeClusterDifferenceView;
    return spec;
}

} // namespace clscope::ui
