// The Cluster panel's registry entry and `clscope --demo cluster`: generate a Phase-1 event
// (core's digi generator through the demo request: ~59k digis in 1856 modules, a few duplicated
// and invalid digis), open it, cluster it with the default variant on the current device and
// show the detector overview, the histograms and the busiest module's map with its largest
// cluster framed. demoFinished(ok) is
// true only when that run delivered clusters. CLSCOPE_DEMO_VARIANT picks another variant,
// CLSCOPE_DEMO_TAB another result tab ("Module").
#include "gpu/algorithm.hpp"
#include "ui/cluster/cluster_difference_view.hpp"
#include "ui/cluster/cluster_panel.hpp"
#include "ui/kit/panel_demo.hpp"

#include <QDockWidget>
#include <QMainWindow>

namespace clscope::ui {

namespace {

// The results take the image's place in the middle of the window (the image one tab away)
// and the named result tab is shown.
void presentResults(Workbench& wb, const QString& tab) {
    QDockWidget* results = showDockInTheMiddle(wb, "ResultsPanel");
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    if (QDockWidget* panel = demoDock(wb, "AlgorithmPanel_cluster")) {
        panel->raise();
        // The plots get the width, once the docks have settled, within the window's width
        // (fixed sizes made the window wider than a 1600-pixel screen).
        QMetaObject::invokeMethod(
            window,
            [window, panel, results] {
                const int w = window->width();
                if (results)
                    window->resizeDocks({results, panel}, {w * 55 / 100, w * 24 / 100},
                                        Qt::Horizontal);
            },
            Qt::QueuedConnection);
    }
    showResultTab(wb, tab);
}

// The busiest module that has a duplicated digi (else the busiest), its largest cluster framed.
void selectLargestCluster(ClusterPanel& panel) {
    const ClusterPresenter& p = panel.presenter();
    const auto& clusters = p.perModule(ClusterPresenter::Measure::Clusters);
    int chosen = -1;
    for (int m = 0; m < int(clusters.size()); ++m)
        if (p.duplicatesPerModule()[m] > 0 && (chosen < 0 || clusters[m] > clusters[chosen]))
            chosen = m;
    if (chosen >= 0) panel.selectModule(chosen);
    const auto [first, last] = p.clustersOf(p.selectedModule());
    std::size_t largest = first;
    for (std::size_t c = first; c < last; ++c)
        if (p.result().size[c] > p.result().size[largest]) largest = c;
    if (last > first) panel.selectCluster(largest);
}

void startClusterDemo(Workbench& wb) {
    PanelDemo<ClusterPanel> demo;
    demo.title = "Cluster";
    demo.request = demoRequest("cluster");
    demo.fileName = "clscope-demo-cluster.h5";
    demo.variant = [&wb](ClusterPanel&) {
        return AlgorithmRegistry::instance().find("cluster").defaultVariant(wb.device());
    };
    demo.finished = [&wb](ClusterPanel& panel, bool ok) {
        ok = ok && !panel.presenter().empty() && panel.presenter().result().count() > 0;
        const QString tab = qEnvironmentVariable("CLSCOPE_DEMO_TAB");
        if (ok) selectLargestCluster(panel);
        if (ok) presentResults(wb, tab.isEmpty() ? "Detector" : tab);
        return ok;
    };
    runPanelDemo(wb, demo);
}

} // namespace

AlgorithmPanelSpec clusterPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<ClusterPanel>("cluster", "Cluster");
    spec.startDemo = startClusterDemo;
    spec.differenceView = makeClusterDifferenceView;
    return spec;
}

} // namespace clscope::ui
