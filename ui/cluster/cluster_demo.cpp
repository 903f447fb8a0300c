// `clscope --demo cluster`: a Phase-1 event (~59k digis in 1856 modules, a few duplicated and
// invalid) clustered with the device's preferred variant; the detector overview and histograms
// in the middle, the busiest module with a duplicated digi selected and its largest cluster
// framed. Ok only when the run delivered clusters.
#include "ui/cluster/cluster_panel.hpp"
#include "ui/kit/panel_demo.hpp"

namespace clscope::ui {

void startClusterDemo(Workbench& wb) {
    PanelDemo<ClusterPanel> demo("Cluster", demoRequest("cluster"), "clscope-demo-cluster.h5");
    demo.variant = [&wb](ClusterPanel&) { return preferredVariant(wb, "cluster"); };
    demo.resultsInTheMiddle = demo.panelInFront = true;
    demo.tab = "Detector";
    demo.finished = [&wb](ClusterPanel& panel, bool ok) {
        const ClusterPresenter& p = panel.presenter();
        if (!ok || p.empty() || p.result().count() == 0) return false;
        // The busiest module that has a duplicated digi (else the busiest one, selected already).
        if (const int module = p.busiestModuleWithDuplicates(); module >= 0)
            panel.selectModule(module);
        if (const auto largest = p.largestClusterOf(p.selectedModule()))
            panel.selectCluster(*largest);
        widenDocks(wb, {"ResultsPanel", "AlgorithmPanel_cluster"}, {0.55, 0.24}); // the plots
        return true;
    };
    runPanelDemo(wb, demo);
}

} // namespace clscope::ui
