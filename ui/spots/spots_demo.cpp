// The Spots panel's registry entry and `clscope --demo spots`: a synthetic diffraction stack
// with EIGER-like chip and module gaps (core/synthetic, as `clscope-cli generate diffraction`),
// opened, run over every frame with the preferred variant of the current device, then the spot
// with the most neighbours picked in the table so the image view shows it with its frame's
// signal pixels and boxes. CLSCOPE_DEMO_VARIANT picks another variant, CLSCOPE_DEMO_IMAGE a
// debug image (e.g. "σ_b test", "index of dispersion") for the image view. demoFinished(ok)
// says whether the run succeeded.
#include "core/errors.hpp"
#include "gpu/spots/run_types.hpp"
#include "gpu/spots/spots_gpu.hpp"
#include "ui/shell/workbench.hpp"
#include "ui/spots/spots_difference_view.hpp"
#include "ui/spots/spots_panel.hpp"
#include "ui/spots/spots_params_form.hpp"
#include "ui/spots/spots_views.hpp"

#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QStandardPaths>
#include <QTableView>
#include <cmath>

namespace clscope::ui {

namespace {

SpotsPanel* findPanel(Workbench& wb) {
    return wb.parent() ? wb.parent()->findChild<SpotsPanel*>() : nullptr;
}

// The row of the spot with the most other spots of its frame within 40 px.
int busiestRow(const SpotsPresenter& p) {
    int best = 0;
    std::size_t most = 0;
    for (std::size_t row = 0; row < p.rowCount(); ++row) {
        const spots::Spot& s = p.spotAtRow(row);
        std::size_t near = 0;
        for (std::size_t other = 0; other < p.rowCount(); ++other) {
            const spots::Spot& o = p.spotAtRow(other);
            near += o.frame == s.frame && std::abs(o.x - s.x) < 40 && std::abs(o.y - s.y) < 40;
        }
        if (near > most) most = near, best = static_cast<int>(row);
    }
    return best;
}

void showDemoResult(Workbench& wb, SpotsPanel& panel) {
    const QString image = qEnvironmentVariable("CLSCOPE_DEMO_IMAGE");
    for (SpotsImage kind : spotsImages())
        if (QString::fromStdString(spotsImageName(kind)) == image) panel.setImage(kind);
    if (SpotTableView* table = panel.tableView())
        table->table()->selectRow(busiestRow(panel.presenter()));
    (void)wb;
}

void startSpotsDemo(Workbench& wb) {
    SyntheticRequest request = demoRequest("spots");
    request.diffraction.frames = 6;
    request.diffraction.height = 700; // a module, its 37-px gap and part of the next one
    request.diffraction.width = 1100; // ... and the 10-px gap between modules side by side
    request.diffraction.spots = 160;
    request.diffraction.seed = 7;
    const QString path = QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation))
                             .filePath("clscope-demo-spots.h5");
    wb.generateAndOpen(request, path, [&wb] {
        SpotsPanel* panel = findPanel(wb);
        auto* window = qobject_cast<QMainWindow*>(wb.parent());
        if (!panel || !window) {
            wb.log(LogLevel::Error, "Spots demo: the Spots panel is not there");
            emit wb.demoFinished(false);
            return;
        }
        if (auto* dock = window->findChild<QDockWidget*>("AlgorithmPanel_spots")) dock->raise();
        const QString chosen = qEnvironmentVariable("CLSCOPE_DEMO_VARIANT");
        panel->setVariant(chosen.isEmpty()
                              ? spots::preferredVariant(wb.device(), panel->form()->params().method)
                              : chosen.toStdString());
        QObject::connect(
            panel, &SpotsPanel::runFinished, panel,
            [&wb, panel](bool ok) {
                if (ok) showDemoResult(wb, *panel);
                emit wb.demoFinished(ok && panel->presenter().hasRun());
            },
            Qt::SingleShotConnection);
        if (!panel->run()) emit wb.demoFinished(false);
    });
}

QWidget* spotsDifference(const AlgorithmResult& a, const AlgorithmResult& b) {
    const auto& ra = dynamic_cast<const spots::SpotsResult&>(a);
    const auto& rb = dynamic_cast<const spots::SpotsResult&>(b);
    return new SpotsDifferenceView(ra.result, ra.info.variant + " @ " + ra.info.device, rb.result,
                                   rb.info.variant + " @ " + rb.info.device);
}

} // namespace

AlgorithmPanelSpec spotsPanelSpec() {
    AlgorithmPanelSpec spec;
    spec.algorithm = "spots";
    spec.title = "Spots";
    spec.createPanel = [](Workbench& wb, QWidget* parent) { return new SpotsPanel(wb, parent); };
    spec.startDemo = startSpotsDemo;
    spec.comparisonInput = [](Workbench& wb) {
        SpotsPanel* panel = findPanel(wb);
        if (!panel) throw InputError("the Spots panel is not there");
        return panel->comparisonInput();
    };
    spec.differenceView = spotsDifference;
    return spec;
}

} // namespace clscope::ui
