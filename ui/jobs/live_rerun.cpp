#include "ui/jobs/live_rerun.hpp"

#include "ui/jobs/job_runner.hpp"

namespace clscope::ui {

LiveRerun::LiveRerun(JobRunner& runner, std::function<std::optional<Job>()> makeJob, int delayMs,
                     QObject* parent)
    : QObject(parent), runner_(runner), makeJob_(std::move(makeJob)) {
    timer_.setSingleShot(true);
    timer_.setInterval(delayMs);
    connect(&timer_, &QTimer::timeout, this, &LiveRerun::fire);
    connect(&runner_, &JobRunner::finished, this, [this] {
        if (waiting_) timer_.start();
    });
}

void LiveRerun::request() {
    if (enabled_) timer_.start();
}

void LiveRerun::fire() {
    if (runner_.isBusy()) {
        waiting_ = true;
        return;
    }
    waiting_ = false;
    std::optional<Job> job = makeJob_();
    if (job && runner_.submit(std::move(*job))) emit submitted();
}

} // namespace clscope::ui
