// The Spots panel's registry entry and `clscope --demo spots`: a synthetic diffraction stack
// with EIGER-like chip and module gaps (core/synthetic, as `clscope-cli generate diffraction`),
// opened, run over every frame with the preferred variant of the current device, then the spot
// nearest to where the module gaps cross picked in the table, so the image view shows it, its
// frame's signal pixels and boxes, and the gaps. CLSCOPE_DEMO_VARIANT picks another variant,
// CLSCOPE_DEMO_IMAGE a debug image (e.g. "σ_b test", "index of dispersion") for the image view,
// CLSCOPE_DEMO_TAB another result tab ("Per frame"). demoFinished(ok) says whether the run
// succeeded.
#include "gpu/spots/run_types.hpp"
#include "gpu/spots/spots_gpu.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/panel_demo.hpp"
#include "ui/params/param_form.hpp"
#include "ui/spots/spots_difference_view.hpp"
#include "ui/spots/spots_live.hpp"
#include "ui/spots/spots_panel.hpp"
#include "ui/spots/spots_views.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QTableView>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// Where the module gaps of the demo cross (rows 514-550, columns 1030-1039), less 30 px.
constexpr double demoX = 1000, demoY = 484;

// The row of the spot nearest to (x, y).
int nearestRow(const SpotsPresenter& p, double x, double y) {
    int best = 0;
    double closest = INFINITY;
    for (std::size_t row = 0; row < p.rowCount(); ++row) {
        const spots::Spot& s = p.spotAtRow(row);
        const double d = std::hypot(s.x - x, s.y - y);
        if (d < closest) closest = d, best = static_cast<int>(row);
    }
    return best;
}

// A view about 220 px wide around (x, y): the spot, its neighbours and the module gaps.
void widenAround(Workbench& wb, double x, double y) {
    QCustomPlot* plot = wb.image().plot();
    const double aspect = plot->yAxis->range().size() / plot->xAxis->range().size();
    wb.image().showRegion(x - 110, x + 110, y - 110 * aspect, y + 110 * aspect);
}

// The right-hand column wide enough for every column of the spot table; CLSCOPE_DEMO_TAB
// names another result tab to show (e.g. "Per frame").
void arrangeDemo(Workbench& wb) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    if (QDockWidget* results = demoDock(wb, "ResultsPanel"))
        window->resizeDocks({results}, {470}, Qt::Horizontal);
    showResultTab(wb, qEnvironmentVariable("CLSCOPE_DEMO_TAB"));
}

void showDemoResult(Workbench& wb, SpotsPanel& panel) {
    arrangeDemo(wb);
    const QString image = qEnvironmentVariable("CLSCOPE_DEMO_IMAGE");
    for (SpotsImage kind : spotsImages())
        if (QString::fromStdString(spotsImageName(kind)) == image) panel.setImage(kind);
    SpotTableView* table = panel.tableView();
    if (!table) return;
    table->table()->selectRow(nearestRow(panel.presenter(), demoX, demoY));
    if (const auto target = panel.presenter().selectedTarget())
        widenAround(wb, target->x, target->y);
}

void startSpotsDemo(Workbench& wb) {
    PanelDemo<SpotsPanel> demo;
    demo.title = "Spots";
    demo.request = demoRequest("spots");
    demo.request.options.set("frames", 6);
    demo.request.options.set("height", 700); // a module, its 37-px gap and part of the next one
    demo.request.options.set("width", 1100); // ... and the 10-px gap between modules side by side
    demo.request.options.set("spots", 160);
    demo.request.options.set("gaps", true);
    demo.fileName = "clscope-demo-spots.h5";
    demo.prepare = [&wb](SpotsPanel&) {
        if (QDockWidget* dock = demoDock(wb, "AlgorithmPanel_spots")) dock->raise();
    };
    demo.variant = [&wb](SpotsPanel& panel) {
        const ParamSet params = panel.form()->paramSet();
        return AlgorithmRegistry::instance().find("spots").defaultVariant(wb.device(), nullptr,
                                                                          &params);
    };
    demo.finished = [&wb](SpotsPanel& panel, bool ok) {
        if (ok) showDemoResult(wb, panel);
        return ok && panel.presenter().hasRun();
    };
    runPanelDemo(wb, demo);
}

} // namespace

AlgorithmPanelSpec spotsPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<SpotsPanel>("spots", "Spots");
    spec.startDemo = startSpotsDemo;
    spec.liveAnalysis = spotsLiveSpec;
    spec.differenceView = differenceViewOf<spots::SpotsResult, SpotsDifferenceView>;
    return spec;
}

} // namespace clscope::ui
