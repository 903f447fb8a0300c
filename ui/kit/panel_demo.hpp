// The one `clscope --demo ALGO` driver of the algorithm panels: the demo's data set generated
// into the temp folder and opened, the algorithm's panel set up by the demo, its variant chosen
// (CLSCOPE_DEMO_VARIANT, else the demo's pick), Run pressed, and Workbench::demoFinished(ok)
// once the demo's own `finished` has arranged the window, with the result tab CLSCOPE_DEMO_TAB
// names (else the demo's) in front. An algorithm's demo file keeps only its data set, its set-up
// and what it shows.
#pragma once
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "ui/data/generate_request.hpp"
#include "ui/kit/demo_window.hpp"
#include "ui/kit/panel_spec.hpp"
#include "ui/kit/workbench.hpp"

#include <QDockWidget>
#include <QString>
#include <functional>
#include <string>

namespace clscope::ui {

template <class Panel> struct PanelDemo {
    PanelDemo(QString title, GenerateRequest request, QString fileName)
        : title(std::move(title)), request(std::move(request)), fileName(std::move(fileName)) {}
    QString title;           // the panel's name in messages ("XPCS": "XPCS demo: ...")
    GenerateRequest request; // the data set
    QString fileName;        // in the temp folder
    // Sets the panel for the run (parameters); empty: nothing to set.
    std::function<void(Panel&)> prepare;
    // The panel's dock raised before the run (in front at the screenshot).
    bool panelInFront = false;
    // The variant when CLSCOPE_DEMO_VARIANT names none; empty: the panel's own.
    std::function<std::string(Panel&)> variant;
    // After Run was pressed (started or not); empty: nothing.
    std::function<void(Panel&)> started;
    // Once the run delivered: the Results dock where the image was (the image one tab away).
    bool resultsInTheMiddle = false;
    // The run finished (ok: it delivered): arranges the window; whether the demo succeeded.
    // Empty: ok.
    std::function<bool(Panel&, bool ok)> finished;
    // The result tab in front once the demo succeeded (CLSCOPE_DEMO_TAB names another); empty:
    // the one the run left in front.
    QString tab;
};

// The algorithm's preferred variant on the workbench's device (for these parameters).
inline std::string preferredVariant(Workbench& wb, const std::string& algorithm,
                                    const ParamSet* params = nullptr) {
    return AlgorithmRegistry::instance().find(algorithm).defaultVariant(wb.device(), nullptr,
                                                                        params);
}
inline std::string preferredVariant(Workbench& wb, const std::string& algorithm,
                                    const ParamSet& params) {
    return preferredVariant(wb, algorithm, &params);
}

// The demo's data set generated and opened, the panel found (the demo fails when it is not
// there) and prepared, then then(panel).
template <class Panel>
void openPanelDemo(Workbench& wb, PanelDemo<Panel> demo, std::function<void(Panel&)> then) {
    generateDemo(wb, demo.request, demo.fileName, [&wb, demo, then] {
        Panel* panel = panelIn<Panel>(wb);
        if (!panel) {
            wb.log(LogLevel::Error, QString("%1 demo: the %1 panel is not there").arg(demo.title));
            emit wb.demoFinished(false);
            return;
        }
        if (demo.prepare) demo.prepare(*panel);
        const QString dock = "AlgorithmPanel_" + QString::fromStdString(panel->algorithm());
        if (QDockWidget* panelDock = demoDock(wb, dock); panelDock && demo.panelInFront)
            panelDock->raise();
        then(*panel);
    });
}

// The window arranged after the demo's run (ok: it delivered), demoFinished(whether it succeeded).
template <class Panel>
void finishPanelDemo(Workbench& wb, const PanelDemo<Panel>& demo, Panel& panel, bool ok) {
    if (ok && demo.resultsInTheMiddle) showDockInTheMiddle(wb, "ResultsPanel");
    const bool succeeded = demo.finished ? demo.finished(panel, ok) : ok;
    const QString tab = qEnvironmentVariable("CLSCOPE_DEMO_TAB");
    if (succeeded) showResultTab(wb, tab.isEmpty() ? demo.tab : tab);
    emit wb.demoFinished(succeeded);
}

// The panel's run with the demo's variant, then finishPanelDemo.
template <class Panel> void runPanelDemo(Workbench& wb, PanelDemo<Panel> demo) {
    openPanelDemo<Panel>(wb, demo, [&wb, demo](Panel& panel) {
        const QString chosen = qEnvironmentVariable("CLSCOPE_DEMO_VARIANT");
        if (!chosen.isEmpty())
            panel.setVariant(chosen.toStdString());
        else if (demo.variant)
            panel.setVariant(demo.variant(panel));
        QObject::connect(
            &panel, &Panel::runFinished, &panel,
            [&wb, &panel, demo](bool ok) { finishPanelDemo(wb, demo, panel, ok); },
            Qt::SingleShotConnection);
        const bool running = panel.run();
        if (demo.started) demo.started(panel);
        if (!running) emit wb.demoFinished(false);
    });
}

} // namespace clscope::ui
