#include "ui/jobs/job_runner.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/kernel_watch.hpp"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QMetaObject>
#include <mutex>
#include <optional>

namespace clscope::ui {

namespace {
std::atomic<int> abandoned{0};
} // namespace

// What a worker thread posts to the GUI thread through: the runner while it lives (posting
// under the mutex, so none is posted to a runner being destroyed; Qt drops the events already
// posted to a destroyed object).
struct JobRunner::Relay {
    std::mutex mutex;
    JobRunner* runner = nullptr;
};

JobRunner::JobRunner(QObject* parent)
    : QObject(parent), relay_(std::make_shared<Relay>()),
      cancelFlag_(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<clscope::ui::RunTimings>();
    relay_->runner = this;
    startWorker();
}

JobRunner::~JobRunner() {
    {
        const std::lock_guard lock(relay_->mutex);
        relay_->runner = nullptr;
    }
    *cancelFlag_ = true;
    thread_->quit();
    // A watched job still in a user's kernel may never return: after 2 s its thread is left
    // as abandoned (the GUI then quits without joining it); any other job is waited for.
    if (watched_ && !thread_->wait(QDeadlineTimer(2000))) {
        ++abandoned;
        return;
    }
    thread_->wait();
    delete thread_;
}

int JobRunner::abandonedThreads() {
    return abandoned.load();
}

void JobRunner::startWorker() {
    thread_ = new QThread; // no parent: an abandoned one is never deleted
    thread_->setObjectName("clscope job runner");
    worker_ = new QObject;
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_->start();
}

bool JobRunner::submit(Job job) {
    if (busy_) return false;
    busy_ = true;
    cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
    watched_ = job.watchKernels;
    currentTitle_ = QString::fromStdString(job.title);
    auto shared = std::make_shared<Job>(std::move(job));
    emit started(currentTitle_);
    emit progressed(0.0);
    QMetaObject::invokeMethod(
        worker_,
        [shared, generation = generation_, flag = cancelFlag_, relay = relay_,
         seconds = kernelTimeout_] { runOnWorker(shared, generation, flag, relay, seconds); },
        Qt::QueuedConnection);
    return true;
}

void JobRunner::cancel() {
    if (!busy_) return;
    *cancelFlag_ = true;
    emit cancelRequested();
}

void JobRunner::post(const std::shared_ptr<Relay>& relay, int generation,
                     std::function<void()> then) {
    const std::lock_guard lock(relay->mutex);
    JobRunner* runner = relay->runner;
    if (!runner) return;
    QMetaObject::invokeMethod(
        runner,
        [runner, generation, then = std::move(then)] {
            if (generation == runner->generation_) then();
        },
        Qt::QueuedConnection);
}

// Runs on a worker thread: progress is throttled to whole percents and queued to the GUI. It
// touches the runner only through post(): an abandoned job may return after the runner is gone.
void JobRunner::runOnWorker(std::shared_ptr<Job> job, int generation,
                            std::shared_ptr<std::atomic<bool>> cancelFlag,
                            std::shared_ptr<Relay> relay, double kernelSeconds) {
    QElapsedTimer clock;
    clock.start();
    auto lastPercent = std::make_shared<int>(-1);
    Progress progress(
        [relay, generation, lastPercent](double fraction) {
            const int percent = static_cast<int>(fraction * 100.0);
            if (percent == *lastPercent) return;
            *lastPercent = percent;
            post(relay, generation,
                 [relay, fraction] { emit relay->runner->progressed(fraction); });
        },
        cancelFlag.get());
    const QString title = QString::fromStdString(job->title);
    const auto fail = [relay, generation, title](const char* kind, const std::string& message) {
        post(relay, generation, [relay, title, kind, message] {
            relay->runner->failOnGui(title, kind, QString::fromStdString(message));
        });
    };
    std::optional<KernelWatch> watch;
    if (job->watchKernels)
        watch.emplace(kernelSeconds, [relay, generation, title](const std::string& label,
                                                                double seconds) {
            const QString message =
                QString::fromStdString(kernelTimeoutText(label, seconds)) +
                ": clscope stopped waiting for it. OpenCL cannot stop a running kernel, so that "
                "device stays busy until the kernel ends or clscope quits; runs on the host and "
                "other devices go on";
            post(relay, generation, [relay, generation, title, message] {
                relay->runner->abandon(generation, title, message);
            });
        });
    try {
        auto outcome = std::make_shared<JobOutcome>(job->work(progress));
        const double seconds = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
        post(relay, generation,
             [relay, job, outcome, seconds] { relay->runner->finishOnGui(job, outcome, seconds); });
    } catch (const Cancelled&) {
        post(relay, generation, [relay, title] {
            JobRunner* r = relay->runner;
            r->busy_ = false;
            emit r->cancelled(title);
            emit r->finished();
        });
    } catch (const DeviceError& e) {
        fail("device error", e.what());
    } catch (const InputError& e) {
        fail("bad input", e.what());
    } catch (const UsageError& e) {
        fail("usage error", e.what());
    } catch (const std::bad_alloc&) {
        fail("out of memory", "out of host memory");
    } catch (const std::exception& e) {
        fail("error", e.what());
    }
}

void JobRunner::abandon(int generation, const QString& title, const QString& message) {
    if (generation != generation_) return;
    ++generation_; // what the abandoned job posts from now on is dropped
    ++abandoned;
    thread_->quit(); // ends its event loop if the kernel ever finishes; never joined
    startWorker();
    failOnGui(title, "device error", message);
}

void JobRunner::finishOnGui(std::shared_ptr<Job> job, std::shared_ptr<JobOutcome> outcome,
                            double seconds) {
    const QString title = QString::fromStdString(job->title);
    try {
        if (outcome->deliver) outcome->deliver();
    } catch (const std::exception& e) {
        failOnGui(title, "error showing results", e.what());
        return;
    }
    busy_ = false;
    if (!outcome->timings.empty())
        emit timingsReady(RunTimings{job->algorithm, job->variant,
                                     job->device.spec + " " + job->device.name, outcome->timings});
    emit succeeded(title, QString::fromStdString(outcome->summary), seconds);
    emit finished();
}

void JobRunner::failOnGui(const QString& title, const QString& kind, const QString& message) {
    busy_ = false;
    emit failed(title, kind, message);
    emit finished();
}

} // namespace clscope::ui
