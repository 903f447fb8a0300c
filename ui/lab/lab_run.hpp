// One run of the kernel lab from the GUI: `clscope-cli lab ... --source FILE --json OUT` as a
// QProcess, so the GUI gets the CLI's rows and numbers unchanged (the same LabPlan, LabJob and
// contained worker with its --kernel-timeout). The GUI thread never waits: finished() comes
// from the event loop once the CLI has exited. The CLI is $CLSCOPE_CLI, else clscope-cli
// beside this program, else clscope-cli on PATH.
#pragma once
#include "ui/lab/lab_outcome.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QTemporaryDir>

class QProcess;

namespace clscope::ui {

class LabRun : public QObject {
    Q_OBJECT
  public:
    explicit LabRun(QObject* parent = nullptr);
    ~LabRun() override;

    static QString cliPath();
    // Writes `source` as the fork's program and starts the CLI; "" when started, else why
    // not (a usage error found by the plan before any device is touched, or a run under way).
    QString start(LabOptions options, const QString& source);
    bool running() const;
    double elapsedSeconds() const { return clock_.isValid() ? clock_.elapsed() / 1000.0 : 0; }
    // Ends the CLI and the worker it started (the process group of its own); the edits stay.
    void cancel();
    // The CLI's process id while it runs (it leads the group of the run's processes), else 0.
    qint64 processId() const;
    // The last outcome (also after cancel()).
    const LabOutcome& outcome() const { return outcome_; }

  signals:
    void finished();

  private:
    QStringList arguments() const;
    void collect(int exitCode, bool crashed);
    void mapBuildMessages();

    QTemporaryDir dir_;
    QProcess* process_ = nullptr;
    LabOutcome outcome_;
    QElapsedTimer clock_;
};

} // namespace clscope::ui
