// The XPCS panel's registry entry and `clscope --demo xpcs`: generate the seed's synthetic
// dataset (500 frames 201×241 uint8, frame time 1 ms), open it, run the default variant on the
// current device with a two-time map, and show g2(τ) with its fits.
#include "gpu/xpcs/xpcs_gpu.hpp"
#include "ui/shell/workbench.hpp"
#include "ui/xpcs/xpcs_panel.hpp"

#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QStandardPaths>

namespace clscope::ui {

namespace {

constexpr double demoFrameTime = 0.001; // seconds
constexpr std::int32_t demoTwoTimeLabel = 2;

// Show the results where the image was (the image stays one tab away), so that g2(τ) has
// the middle of the window; the XPCS panel keeps the right-hand column.
void showResultsInTheMiddle(Workbench& wb) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    if (!window) return;
    auto* image = window->findChild<QDockWidget*>("ImagePanel");
    auto* results = window->findChild<QDockWidget*>("ResultsPanel");
    if (!image || !results) return;
    window->tabifyDockWidget(image, results);
    results->show();
    results->raise();
}

void startXpcsDemo(Workbench& wb) {
    SyntheticRequest request = demoRequest("xpcs");
    request.xpcs.frameTime = demoFrameTime;
    const QString path =
        QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation)).filePath("clscope-demo-xpcs.h5");
    wb.generateAndOpen(request, path, [&wb] {
        auto* panel = wb.parent() ? wb.parent()->findChild<XpcsPanel*>() : nullptr;
        if (!panel) {
            wb.log(LogLevel::Error, "XPCS demo: the XPCS panel is not there");
            return;
        }
        panel->setCheckedVariants({xpcs::defaultVariant(wb.device())});
        panel->setFrameRange(0, 0);
        panel->setFrameTimeOverride(std::nullopt);
        panel->setTwoTimeLabel(demoTwoTimeLabel);
        QObject::connect(panel, &XpcsPanel::runFinished, panel, [&wb](bool ok) {
            if (ok) showResultsInTheMiddle(wb);
        }, Qt::SingleShotConnection);
        panel->run();
    });
}

} // namespace

AlgorithmPanelSpec xpcsPanelSpec() {
    AlgorithmPanelSpec spec;
    spec.algorithm = "xpcs";
    spec.title = "XPCS";
    spec.createPanel = [](Workbench& wb, QWidget* parent) { return new XpcsPanel(wb, parent); };
    spec.startDemo = startXpcsDemo;
    return spec;
}

} // namespace clscope::ui
