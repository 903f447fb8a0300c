// The one job runner: a worker thread that runs Jobs one at a time, reports progress,
// honours Cancel between the job's steps and hands results back to the GUI thread through
// queued calls. Errors come back as text (a kernel build failure carries its build log).
// A job that runs a user's kernels (Job::watchKernels) is watched (KernelWatch): when one of its
// kernels runs past the limit, the job fails at once with that said, and the runner leaves its
// worker thread waiting (OpenCL cannot stop a running kernel) and goes on with a new one;
// whatever the abandoned job returns later is dropped. Cancel works on any job: one that has not
// returned within 1.5 s (stuck in a wait on its device) is left the same way. A device whose
// job was left is busy, with the reason, until that job returns: jobs that name it are refused
// (runs on the host and on other devices go on). Destroying the runner waits at most 2 s.
#pragma once
#include "ui/jobs/job.hpp"

#include <QObject>
#include <QThread>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clscope::ui {

class JobRunner : public QObject {
    Q_OBJECT
  public:
    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override; // cancels a running job and joins the thread

    // Start a job; false (and nothing started) while another job runs or while a device it names
    // is busy with a job left running (refusal() then says why).
    bool submit(Job job);
    // Why the last submit() was refused ("" after one that started).
    QString refusal() const { return refusal_; }
    // Why runs on `deviceSpec` are refused now, "" when they are not.
    QString deviceBusyReason(const std::string& deviceSpec) const;
    bool isBusy() const { return busy_; }
    // Seconds a watched job's kernel may run (default 30).
    void setKernelTimeout(double seconds) { kernelTimeout_ = seconds; }
    // Worker threads left waiting on their device (a kernel past its limit, or a cancelled job
    // that did not return): their jobs were reported failed or cancelled.
    static int abandonedThreads();
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
    struct Relay;
    void startWorker();
    static void runOnWorker(std::shared_ptr<Job> job, int generation,
                            std::shared_ptr<std::atomic<bool>> cancelFlag,
                            std::shared_ptr<Relay> relay, double kernelSeconds);
    // From a worker thread: `then` on the GUI thread, unless the runner is gone or the job of
    // `generation` was abandoned.
    static void post(const std::shared_ptr<Relay>& relay, int generation,
                     std::function<void()> then);
    void finishOnGui(std::shared_ptr<Job> job, std::shared_ptr<JobOutcome> outcome, double seconds);
    void failOnGui(const QString& title, const QString& kind, const QString& message);
    // A watched kernel ran past the limit (`why`): fail the job with `message`, leave its thread.
    void abandon(int generation, const QString& title, const QString& why, const QString& message);
    // The job did not return after Cancel: report it cancelled, leave its thread.
    void abandonCancelled(int serial);
    // Leave the worker thread (its job's devices busy with `why` until it returns), start another.
    void leaveWorker(const QString& why);
    // From any worker thread once its job has returned: a device it held is free again.
    static void postReturned(const std::shared_ptr<Relay>& relay, int generation);
    void returned(int generation);
    QString refusalOf(const Job& job) const;
    std::shared_ptr<Relay> relay_;
    QThread* thread_ = nullptr;
    QObject* worker_ = nullptr;                     // lives on thread_; queued lambdas run there
    std::shared_ptr<std::atomic<bool>> cancelFlag_; // the running job's (its thread's own)
    int generation_ = 0;                            // of the worker thread now in use
    bool busy_ = false;
    int serial_ = 0;                   // of the last job submitted
    std::vector<std::string> devices_; // the running job's device specs
    // Jobs left running, by their thread's generation: the devices they hold and why.
    struct Left {
        std::vector<std::string> devices;
        QString why;
    };
    std::map<int, Left> left_;
    QString refusal_;
    double kernelTimeout_ = 30;
    QString currentTitle_;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::ui::RunTimings)
