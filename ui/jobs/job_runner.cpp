#include "ui/jobs/job_runner.hpp"

#include "core/errors.hpp"

#include <QElapsedTimer>
#include <QMetaObject>

namespace clscope::ui {

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<clscope::ui::RunTimings>();
    thread_.setObjectName("clscope job runner");
    worker_ = new QObject;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.start();
}

JobRunner::~JobRunner() {
    cancelFlag_ = true;
    thread_.quit();
    thread_.wait();
}

bool JobRunner::submit(Job job) {
    if (busy_) return false;
    busy_ = true;
    cancelFlag_ = false;
    currentTitle_ = QString::fromStdString(job.title);
    auto shared = std::make_shared<Job>(std::move(job));
    emit started(currentTitle_);
    emit progressed(0.0);
    QMetaObject::invokeMethod(
        worker_, [this, shared] { runOnWorker(shared); }, Qt::QueuedConnection);
    return true;
}

void JobRunner::cancel() {
    if (!busy_) return;
    cancelFlag_ = true;
    emit cancelRequested();
}

// Runs on the worker thread: progress is throttled to whole percents and queued to the GUI.
void JobRunner::runOnWorker(std::shared_ptr<Job> job) {
    QElapsedTimer clock;
    clock.start();
    auto lastPercent = std::make_shared<int>(-1);
    Progress progress(
        [this, lastPercent](double fraction) {
            const int percent = static_cast<int>(fraction * 100.0);
            if (percent == *lastPercent) return;
            *lastPercent = percent;
            QMetaObject::invokeMethod(
                this, [this, fraction] { emit progressed(fraction); }, Qt::QueuedConnection);
        },
        &cancelFlag_);
    const QString title = QString::fromStdString(job->title);
    const auto fail = [this, title](const char* kind, const std::string& message) {
        QMetaObject::invokeMethod(
            this,
            [this, title, kind, message] {
                failOnGui(title, kind, QString::fromStdString(message));
            },
            Qt::QueuedConnection);
    };
    try {
        auto outcome = std::make_shared<JobOutcome>(job->work(progress));
        const double seconds = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
        QMetaObject::invokeMethod(
            this, [this, job, outcome, seconds] { finishOnGui(job, outcome, seconds); },
            Qt::QueuedConnection);
    } catch (const Cancelled&) {
        QMetaObject::invokeMethod(
            this,
            [this, title] {
                busy_ = false;
                emit cancelled(title);
                emit finished();
            },
            Qt::QueuedConnection);
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
