// The XPCS panel's registry entry, `clscope --demo xpcs` and `clscope --demo compare`: generate
// a Brownian synthetic dataset with a known D (frame time 1 ms) and open it. `--demo xpcs`: a
// long series (4096 frames of 64×96 uint8, 7 rings, τ over 3.6 decades) correlated multi-tau with
// the default multi-tau variant of the current device and a two-time map of the stack binned by 16
// frames, then g2(τ) with its fits. `--demo compare`: the seed's size (500 frames of 201×241),
// dense, every xpcs variant on every device in the Compare dock. The demo reports
// whether its run succeeded (Workbench::demoFinished). CLSCOPE_DEMO_VARIANT picks another
// variant for `--demo xpcs`, CLSCOPE_DEMO_TAB another result tab to show.
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "ui/compare/compare_every_variant.hpp"
#include "ui/kit/panel_spec.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/xpcs/xpcs_difference_view.hpp"
#include "ui/xpcs/xpcs_live.hpp"
#include "ui/xpcs/xpcs_panel.hpp"

#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QStandardPaths>
#include <QTabWidget>

namespace clscope::ui {

namespace {

constexpr double demoFrameTime = 0.001; // seconds
constexpr std::int32_t demoTwoTimeLabel = 2;

// The dataset of a demo and how it is correlated.
struct DemoSeries {
    bool multitau = false;
    long long frames = 0, height = 0, width = 0; // 0: the generator's defaults
    double ringWidth = 0;                        // px; 0: the generator's default
    long long twotimeBin = 0;
};
constexpr DemoSeries longSeries{true, 4096, 64, 96, 8.0, 16};
constexpr DemoSeries seedSeries{};

QDockWidget* dockOf(Workbench& wb, const char* name) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    return window ? window->findChild<QDockWidget*>(name) : nullptr;
}

// Show a dock where the image was (the image stays one tab away), so that it has the middle
// of the window; the XPCS panel keeps the right-hand column.
void showInTheMiddle(Workbench& wb, const char* name) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    QDockWidget *image = dockOf(wb, "ImagePanel"), *dock = dockOf(wb, name);
    if (!window || !image || !dock) return;
    window->tabifyDockWidget(image, dock);
    dock->show();
    dock->raise();
}

// CLSCOPE_DEMO_TAB names a result tab to show instead of g2(τ) (e.g. "Γ vs q²").
void raiseResultTab(Workbench& wb, const QString& title) {
    QTabWidget* tabs = wb.results().tabWidget();
    for (int i = 0; !title.isEmpty() && i < tabs->count(); ++i)
        if (tabs->tabText(i) == title) tabs->setCurrentIndex(i);
}

// Generate and open the demo dataset, then call then(panel) with the XPCS panel set up.
void withDemoData(Workbench& wb, DemoSeries series, std::function<void(XpcsPanel&)> then) {
    GenerateRequest request = demoRequest("xpcs");
    request.options.set("frame_time", demoFrameTime);
    for (const auto& [name, value] :
         {std::pair{"frames", series.frames}, {"height", series.height}, {"width", series.width}})
        if (value > 0) request.options.set(name, value);
    if (series.ringWidth > 0) request.options.set("ring_width", series.ringWidth);
    const QString path =
        QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation))
            .filePath(series.multitau ? "clscope-demo-xpcs-long.h5" : "clscope-demo-xpcs.h5");
    wb.generateAndOpen(request, path, [&wb, series, then] {
        auto* panel = panelIn<XpcsPanel>(wb);
        if (!panel) {
            wb.log(LogLevel::Error, "XPCS demo: the XPCS panel is not there");
            emit wb.demoFinished(false);
            return;
        }
        panel->setFrameRange(0, 0);
        panel->setFrameTimeOverride(std::nullopt);
        panel->setTwoTimeLabel(demoTwoTimeLabel);
        panel->form()->setValue("multitau", series.multitau);
        panel->form()->setValue("twotime_bin", series.twotimeBin);
        then(*panel);
    });
}

void startXpcsDemo(Workbench& wb) {
    withDemoData(wb, longSeries, [&wb](XpcsPanel& panel) {
        const QString chosen = qEnvironmentVariable("CLSCOPE_DEMO_VARIANT");
        const ParamSet params = panel.request().params();
        panel.setVariant(chosen.isEmpty()
                             ? AlgorithmRegistry::instance().find("xpcs").defaultVariant(
                                   wb.device(), nullptr, &params)
                             : chosen.toStdString());
        QObject::connect(
            &panel, &XpcsPanel::runFinished, &panel,
            [&wb](bool ok) {
                if (ok) showInTheMiddle(wb, "ResultsPanel");
                if (ok) raiseResultTab(wb, qEnvironmentVariable("CLSCOPE_DEMO_TAB"));
                emit wb.demoFinished(ok);
            },
            Qt::SingleShotConnection);
        if (!panel.run()) emit wb.demoFinished(false);
    });
}

void startCompareDemo(Workbench& wb) {
    withDemoData(wb, seedSeries, [&wb](XpcsPanel&) { compareEveryVariant(wb, "xpcs"); });
}

} // namespace

AlgorithmPanelSpec xpcsPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<XpcsPanel>("xpcs", "XPCS");
    spec.startDemo = startXpcsDemo;
    spec.liveAnalysis = xpcsLiveSpec;
    spec.differenceView = differenceViewOf<xpcs::RunResult, XpcsDifferenceView>;
    spec.startCompareDemo = startCompareDemo;
    return spec;
}

} // namespace clscope::ui
