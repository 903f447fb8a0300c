// What every algorithm panel's Run is, once: the busy state (one run of a panel at a time), the
// Run button ("Run (Ctrl+R)", Ctrl+R scoped to the panel) greyed while the panel cannot run or
// its Run is in flight, the job submitted through the workbench's one job runner, Cancel, and
// the end of every run, finishRun: Run enabled again and runFinished(ok) emitted once, on
// delivery (queued, after the runner is idle), error or Cancel. The typed delivery of the result
// is TypedPanel's (ui/kit/typed_panel.hpp). A panel keeps its form, its views and makeJob.
#pragma once
#include "ui/jobs/job.hpp"
#include "ui/jobs/layout_export.hpp"
#include "ui/jobs/stored_result.hpp"

#include <QString>
#include <QWidget>
#include <optional>
#include <string>

class QPushButton;

namespace clscope::ui {

class Workbench;

class AlgorithmPanel : public QWidget {
    Q_OBJECT
  public:
    // Start a Run with the panel's choices; false (the reason in the Log) when it cannot: a run
    // is in progress, makeJob threw or said why, or the job runner refused the job.
    bool run();
    // Whether a run of this panel (its Run, or a live re-run it counts) is in flight.
    bool isRunning() const { return inFlight_ != InFlight::None; }
    // Cancel this panel's run in flight (the job runner's Cancel); nothing when none is.
    void cancelRun();
    QPushButton* runButton() const { return runButton_; }
    // The registry's name of the algorithm ("xpcs") and the panel's name in messages ("XPCS").
    const std::string& algorithm() const { return algorithm_; }
    const QString& title() const { return title_; }
    // A result read back from its file (Workbench::openFile of a clscope result), shown as a
    // run's result is: TypedPanel delivers it to showResult with the command line of the run
    // that made it, the type checked once. Throws what is wrong with it (e.g. another
    // algorithm's result); the result shown before stays.
    virtual void showStoredResult(const StoredDelivery& stored) = 0;
    // What the panel's views need of the run's input to show a stored result (read from the
    // sources its provenance names); default: nothing (the input stays null).
    virtual WholeInput storedResultInput() const { return WholeInput::Never; }

  signals:
    // The run has delivered its result (ok) or stopped on an error or Cancel: once per run.
    void runFinished(bool ok);

  protected:
    AlgorithmPanel(Workbench& workbench, std::string algorithm, QString title, QWidget* parent);
    // The job of the request on screen. Throws what is wrong with it (reported as "TITLE: why"
    // in the Log and the status bar) or returns nothing having said why itself.
    virtual std::optional<Job> makeJob() = 0;
    // A run ended (finishRun, before runFinished), or a stored result was shown (ok true):
    // what the panel does then (a tab in front).
    virtual void runEnded(bool ok);
    // The panel's Run button (made once; the panel places it under `parent`).
    QPushButton* makeRunButton(QWidget* parent, const QString& tip = {});
    // Why Run cannot run now, "" when it can: Run is greyed with the reason as its tooltip.
    void setRunRefusal(const QString& why);
    // A live re-run the panel submitted itself (ui/jobs/live_rerun.hpp): it ends like a Run
    // (runFinished), but Run stays enabled meanwhile (pressing it is refused, said in the Log).
    void liveRunSubmitted();
    // The run delivered (TypedPanel, on the GUI thread): finishRun(true) once the job runner has
    // emitted its own signals and is idle, so that runFinished's handlers may submit again.
    void runDelivered();
    // The Results dock raised with the algorithm's tab the user had in front, else `fallback`.
    void showResultsAfterRun(QWidget* fallback);
    // "TITLE: why" as an error in the Log and for 8 s in the status bar.
    void reportError(const QString& why);
    // The result just shown can also be exported in these layouts (its tab written as HDF5).
    void offerLayouts(const LayoutExport& layouts);

    Workbench& wb_;

  private:
    enum class InFlight { None, Run, Live };
    void finishRun(bool ok);
    void updateRunButton();

    std::string algorithm_;
    QString title_;
    QPushButton* runButton_ = nullptr;
    QString runTip_, refusal_;
    InFlight inFlight_ = InFlight::None;
};

} // namespace clscope::ui
