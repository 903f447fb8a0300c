#include "ui/jobs/job_runner.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/kernel_watch.hpp"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QMetaObject>
#include <QTimer>
#include <algorithm>
#include <mutex>
#include <optional>

namespace clscope::ui {

namespace {

std::atomic<int> abandoned{0};

// How long a cancelled job may take to return before its thread is left.
constexpr int cancelGraceMs = 1500;

std::vector<std::string> devicesOf(const Job& job) {
    std::vector<std::string> devices = job.otherDevices;
    devices.push_back(job.device.spec);
    std::erase(devices, std::string());
    return devices;
}

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
    // A job still waiting on its device (a user's kernel, or any work queued behind one) may
    // never return: after 2 s its thread is left as abandoned (the GUI then quits without
    // joining it).
    if (!thread_->wait(QDeadlineTimer(2000))) {
        ++abandoned;
        return;
    }
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
    refusal_ = refusalOf(job);
    if (!refusal_.isEmpty()) return false;
    busy_ = true;
    ++serial_;
    cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
    devices_ = devicesOf(job);
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

QString JobRunner::refusalOf(const Job& job) const {
    if (busy_) return "A run is in progress (" + currentTitle_ + "); cancel it or wait";
    for (const std::string& device : devicesOf(job)) {
        const QString why = deviceBusyReason(device);
        if (!why.isEmpty()) return why;
    }
    return {};
}

QString JobRunner::deviceBusyReason(const std::string& deviceSpec) const {
    for (const auto& [generation, left] : left_)
        if (std::ranges::find(left.devices, deviceSpec) != left.devices.end())
            return QString("%1 is busy: %2. Runs on it are refused until that ends (or clscope "
                           "restarts); choose another device")
                .arg(QString::fromStdString(deviceSpec), left.why);
    return {};
}

void JobRunner::cancel() {
    if (!busy_) return;
    *cancelFlag_ = true;
    emit cancelRequested();
    QTimer::singleShot(cancelGraceMs, this, [this, serial = serial_] { abandonCancelled(serial); });
}

void JobRunner::abandonCancelled(int serial) {
    if (!busy_ || serial != serial_) return; // it returned
    const QString title = currentTitle_;
    leaveWorker("the cancelled run " + title + " still waits on it");
    busy_ = false;
    emit cancelled(title);
    emit finished();
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
            const QString said = QString::fromStdString(kernelTimeoutText(label, seconds));
            const QString message =
                said + ": clscope stopped waiting for it. OpenCL cannot stop a running kernel, so "
                       "that device stays busy (runs on it refused) until the kernel ends or "
                       "clscope quits; runs on the host and other devices go on";
            post(relay, generation, [relay, generation, title, said, message] {
                relay->runner->abandon(generation, title, said, message);
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
    postReturned(relay, generation);
}

void JobRunner::abandon(int generation, const QString& title, const QString& why,
                        const QString& message) {
    if (generation != generation_) return;
    leaveWorker(why);
    failOnGui(title, "device error", message);
}

void JobRunner::leaveWorker(const QString& why) {
    left_[generation_] = {devices_, why};
    *cancelFlag_ = true; // should it return from the device, it stops at its next step
    ++generation_;       // what the left job posts from now on is dropped
    ++abandoned;
    thread_->quit(); // ends its event loop if the job ever returns; never joined
    startWorker();
}

void JobRunner::postReturned(const std::shared_ptr<Relay>& relay, int generation) {
    const std::lock_guard lock(relay->mutex);
    JobRunner* runner = relay->runner;
    if (!runner) return;
    QMetaObject::invokeMethod(
        runner, [runner, generation] { runner->returned(generation); }, Qt::QueuedConnection);
}

void JobRunner::returned(int generation) {
    left_.erase(generation);
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
                                     job->device.spec + " " + job->device.name, outcome->timings,
                                     outcome->entries, outcome->wallMs});
    emit succeeded(title, QString::fromStdString(outcome->summary), seconds);
    emit finished();
}

void JobRunner::failOnGui(const QString& title, const QString& kind, const QString& message) {
    busy_ = false;
    emit failed(title, kind, message);
    emit finished();
}

} // namespace clscope::ui
