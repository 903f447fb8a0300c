// `clscope --demo spots`: a synthetic stack with EIGER-like chip and module gaps run over every
// frame with the device's preferred variant; the spot nearest to where the gaps cross chosen in
// the table, shown on its frame with the signal pixels, the boxes and the gaps.
#include "ui/image/image_view.hpp"
#include "ui/kit/panel_demo.hpp"
#include "ui/params/param_form.hpp"
#include "ui/spots/spots_panel.hpp"

#include <QMainWindow>
#include <QTableView>

namespace clscope::ui {

namespace {

// The image CLSCOPE_DEMO_IMAGE names ("σ_b test"), the spot table's width, and the spot nearest
// to 30 px before the gaps (rows 514-550, columns 1030-1039) cross chosen, shown 220 px wide.
void showSpotNearTheGaps(Workbench& wb, SpotsPanel& panel) {
    if (const auto image =
            spotsImageNamed(qEnvironmentVariable("CLSCOPE_DEMO_IMAGE").toStdString()))
        panel.setImage(*image);
    if (QDockWidget* results = demoDock(wb, "ResultsPanel"))
        qobject_cast<QMainWindow*>(wb.parent())->resizeDocks({results}, {470}, Qt::Horizontal);
    if (panel.tableView())
        panel.tableView()->table()->selectRow(panel.presenter().rowNearest(1000, 484));
    if (const auto at = panel.presenter().selectedTarget())
        wb.image().showAround(at->x, at->y, 110);
}

} // namespace

void startSpotsDemo(Workbench& wb) {
    PanelDemo<SpotsPanel> demo("Spots", demoRequest("spots"), "clscope-demo-spots.h5");
    // 6 frames of a module, its 37-px gap, part of the next one and the 10-px gap beside it
    for (const auto& [name, value] :
         {std::pair{"frames", 6}, {"height", 700}, {"width", 1100}, {"spots", 160}})
        demo.request.options.set(name, value);
    demo.request.options.set("gaps", true);
    demo.panelInFront = true;
    demo.variant = [&wb](SpotsPanel& p) {
        return preferredVariant(wb, "spots", p.form()->paramSet());
    };
    demo.finished = [&wb](SpotsPanel& panel, bool ok) {
        if (ok) showSpotNearTheGaps(wb, panel);
        return ok && panel.presenter().hasRun();
    };
    runPanelDemo(wb, demo);
}

} // namespace clscope::ui
