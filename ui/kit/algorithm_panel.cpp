#include "ui/kit/algorithm_panel.hpp"

#include "ui/kit/workbench.hpp"

#include <QDockWidget>
#include <QKeySequence>
#include <QPushButton>
#include <QShortcut>

namespace clscope::ui {

AlgorithmPanel::AlgorithmPanel(Workbench& workbench, std::string algorithm, QString title,
                               QWidget* parent)
    : QWidget(parent), wb_(workbench), algorithm_(std::move(algorithm)), title_(std::move(title)) {
    // The runner runs one job at a time: while this panel's is in flight, its failure or
    // cancellation is this panel's (finishRun ignores them otherwise).
    connect(&wb_.jobs(), &JobRunner::failed, this, [this] { finishRun(false); });
    connect(&wb_.jobs(), &JobRunner::cancelled, this, [this] { finishRun(false); });
}

bool AlgorithmPanel::run() {
    // Checked before makeJob: making a job may write files (xpcs' edited labels) for nothing.
    if (isRunning() || wb_.jobs().isBusy()) {
        const QString what = wb_.jobs().isBusy() ? " (" + wb_.jobs().currentTitle() + ")" : "";
        wb_.log(LogLevel::Warning,
                title_ + ": a run is in progress" + what + "; wait for it or cancel it (Esc)");
        return false;
    }
    std::optional<Job> job;
    try {
        job = makeJob();
    } catch (const std::exception& e) {
        reportError(e.what());
        return false;
    }
    if (!job || !wb_.submit(std::move(*job))) return false;
    inFlight_ = InFlight::Run;
    updateRunButton();
    return true;
}

void AlgorithmPanel::cancelRun() {
    if (isRunning()) wb_.jobs().cancel();
}

void AlgorithmPanel::runEnded(bool) {}

void AlgorithmPanel::offerLayouts(const LayoutExport& layouts) {
    wb_.results().setLayouts(QString::fromStdString(algorithm_), layouts);
}

QPushButton* AlgorithmPanel::makeRunButton(QWidget* parent, const QString& tip) {
    runButton_ = new QPushButton("Run (Ctrl+R)", parent);
    runTip_ = tip;
    // Scoped to the panel: the Compare dock has its own Ctrl+R.
    auto* shortcut = new QShortcut(QKeySequence("Ctrl+R"), this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, [this] { run(); });
    connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
    updateRunButton();
    return runButton_;
}

void AlgorithmPanel::setRunRefusal(const QString& why) {
    refusal_ = why;
    updateRunButton();
}

void AlgorithmPanel::liveRunSubmitted() {
    inFlight_ = InFlight::Live;
}

void AlgorithmPanel::runDelivered() {
    QMetaObject::invokeMethod(
        this, [this] { finishRun(true); }, Qt::QueuedConnection);
}

void AlgorithmPanel::finishRun(bool ok) {
    if (!isRunning()) return; // another panel's job, or this run has ended already
    inFlight_ = InFlight::None;
    updateRunButton();
    runEnded(ok);
    emit runFinished(ok);
}

void AlgorithmPanel::updateRunButton() {
    if (!runButton_) return;
    runButton_->setEnabled(refusal_.isEmpty() && inFlight_ != InFlight::Run);
    runButton_->setToolTip(refusal_.isEmpty() ? runTip_ : refusal_);
}

void AlgorithmPanel::showResultsAfterRun(QWidget* fallback) {
    wb_.results().showAfterRun(QString::fromStdString(algorithm_), fallback);
    if (auto* dock = qobject_cast<QDockWidget*>(wb_.results().parentWidget())) dock->raise();
}

void AlgorithmPanel::reportError(const QString& why) {
    wb_.log(LogLevel::Error, QString("%1: %2").arg(title_, why));
    emit wb_.statusMessage(QString("%1: %2").arg(title_, why), 8000);
}

} // namespace clscope::ui
