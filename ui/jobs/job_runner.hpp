// The one job runner: a worker thread that runs Jobs one at a time, reports progress,
// honours Cancel between the job's steps and hands results back to the GUI thread through
// queued calls. Errors come back as text (a kernel build failure carries its build log).
#pragma once
#include "ui/jobs/job.hpp"

#include <QObject>
#include <QThread>
#include <atomic>
#include <memory>

namespace clscope::ui {

class JobRunner : public QObject {
    Q_OBJECT
  public:
    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override; // cancels a running job and joins the thread

    // Start a job; false (and nothing started) while another job runs.
    bool submit(Job job);
    bool isBusy() const { return busy_; }
    QString currentTitle() const { return currentTitle_; }

  public slots:
    void cancel();

  signals:
    void started(const QString& title);
    void progressed(double fraction);
    void cancelRequested(); // cancel() was called while a job runs
    // The outcome's deliver() has already run when these are emitted.
    void succeeded(const QString& title, const QString& summary, double seconds);
    void timingsReady(const clscope::ui::RunTimings& timings);
    void failed(const QString& title, const QString& kind, const QString& message);
    void cancelled(const QString& title);
    void finished(); // after any of succeeded, failed, cancelled

  private:
    void runOnWorker(std::shared_ptr<Job> job);
    void finishOnGui(std::shared_ptr<Job> job, std::shared_ptr<JobOutcome> outcome, double seconds);
    void failOnGui(const QString& title, const QString& kind, const QString& message);
    QThread thread_;
    QObject* worker_ = nullptr; // lives on thread_; queued lambdas run there
    std::atomic<bool> cancelFlag_{false};
    bool busy_ = false;
    QString currentTitle_;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::ui::RunTimings)
