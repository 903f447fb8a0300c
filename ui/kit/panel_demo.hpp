// The one `clscope --demo ALGO` driver of the algorithm panels: the demo's data set generated
// into the temp folder and opened, the algorithm's panel set up by the demo, its variant chosen
// (CLSCOPE_DEMO_VARIANT, else the demo's pick), Run pressed, and Workbench::demoFinished(ok)
// once the demo's own `finished` has arranged the window. An algorithm's demo file keeps only
// its data set, its set-up and what it shows.
#pragma once
#include "core/errors.hpp"
#include "ui/data/generate_request.hpp"
#include "ui/kit/demo_window.hpp"
#include "ui/kit/panel_spec.hpp"
#include "ui/kit/workbench.hpp"

#include <QString>
#include <functional>
#include <string>

namespace clscope::ui {

template <class Panel> struct PanelDemo {
    QString title;           // the panel's name in messages ("XPCS": "XPCS demo: ...")
    GenerateRequest request; // the data set
    QString fileName;        // in the temp folder
    // Sets the panel for the run (parameters, dock raised); empty: nothing to set.
    std::function<void(Panel&)> prepare;
    // The variant when CLSCOPE_DEMO_VARIANT names none; empty: the panel's own.
    std::function<std::string(Panel&)> variant;
    // After Run was pressed (started or not); empty: nothing.
    std::function<void(Panel&)> started;
    // The run finished (ok: it delivered): arranges the window; whether the demo succeeded.
    std::function<bool(Panel&, bool ok)> finished;
};

// The demo's data set generated and opened, the panel found (the demo fails when it is not
// there) and prepared, then then(panel).
template <class Panel>
void openPanelDemo(Workbench& wb, PanelDemo<Panel> demo, std::function<void(Panel&)> then) {
    wb.generateAndOpen(demo.request, demoPath(demo.fileName), [&wb, demo, then] {
        Panel* panel = panelIn<Panel>(wb);
        if (!panel) {
            wb.log(LogLevel::Error, QString("%1 demo: the %1 panel is not there").arg(demo.title));
            emit wb.demoFinished(false);
            return;
        }
        if (demo.prepare) demo.prepare(*panel);
        then(*panel);
    });
}

// The panel's run with the demo's variant; demoFinished(demo.finished(panel, ok)).
template <class Panel> void runPanelDemo(Workbench& wb, PanelDemo<Panel> demo) {
    openPanelDemo<Panel>(wb, demo, [&wb, demo](Panel& panel) {
        const QString chosen = qEnvironmentVariable("CLSCOPE_DEMO_VARIANT");
        if (!chosen.isEmpty())
            panel.setVariant(chosen.toStdString());
        else if (demo.variant)
            panel.setVariant(demo.variant(panel));
        QObject::connect(
            &panel, &Panel::runFinished, &panel,
            [&wb, &panel, finished = demo.finished](bool ok) {
                emit wb.demoFinished(finished ? finished(panel, ok) : ok);
            },
            Qt::SingleShotConnection);
        const bool running = panel.run();
        if (demo.started) demo.started(panel);
        if (!running) emit wb.demoFinished(false);
    });
}

} // namespace clscope::ui
