// What every panel's AlgorithmPanelSpec fills the same way, from the panel's class: the dock's
// widget, the Compare dock's input (Panel::comparisonInput), the scripted run (Panel::
// applyScripted, run, runFinished) and a difference view made from two results of one type. An
// algorithm's demo file then adds only what is its own.
#pragma once
#include "core/errors.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/typed_result.hpp"
#include "ui/kit/workbench.hpp"

#include <string>

namespace clscope::ui {

// The panel of this class in the workbench's window, or nullptr.
template <class Panel> Panel* panelIn(Workbench& workbench) {
    return workbench.parent() ? workbench.parent()->findChild<Panel*>() : nullptr;
}

// The one scripted-run driver (`clscope IN.h5 --run ALGO …`, ui/app/scripted_run.hpp): the
// panel's own applyScripted(settings) sets its widgets, its Run is pressed, and done(ok) comes
// with its runFinished(ok) — the same request, job and result tabs as the Run button's.
template <class Panel> auto scriptedRunOf() {
    return [](Workbench& wb, const ScriptedSettings& settings, std::function<void(bool)> done) {
        Panel* panel = panelIn<Panel>(wb);
        if (!panel) throw InputError("the panel of the run is not there");
        panel->applyScripted(settings);
        const QMetaObject::Connection finished =
            QObject::connect(panel, &Panel::runFinished, panel, done, Qt::SingleShotConnection);
        if (panel->run()) return;
        QObject::disconnect(finished);
        done(false);
    };
}

template <class Panel> AlgorithmPanelSpec panelSpecOf(std::string algorithm, QString title) {
    AlgorithmPanelSpec spec;
    spec.algorithm = std::move(algorithm);
    spec.title = title;
    spec.createPanel = [](Workbench& wb, QWidget* parent) { return new Panel(wb, parent); };
    spec.comparisonInput = [title](Workbench& wb) {
        Panel* panel = panelIn<Panel>(wb);
        if (!panel) throw InputError("the " + title.toStdString() + " panel is not there");
        return panel->comparisonInput();
    };
    spec.scriptedRun = scriptedRunOf<Panel>();
    return spec;
}

// View(a's result, "variant @ device", b's result, "variant @ device"), for results of type
// Result that hold their typed result in `result` and their provenance in `info` (UsageError
// for results of another type).
template <class Result, class View>
QWidget* differenceViewOf(const AlgorithmResult& a, const AlgorithmResult& b) {
    const Result& ra = typedAs<Result>(a);
    const Result& rb = typedAs<Result>(b);
    return new View(ra.result, ra.info.variant + " @ " + ra.info.device, rb.result,
                    rb.info.variant + " @ " + rb.info.device);
}

} // namespace clscope::ui
