// Live re-evaluation for parameter controls (spots thresholds, rbf σ/k/grid, cluster charge
// cut): request() after every change; once the controls have been still for delayMs the
// job from makeJob() goes to the one job runner. Changes while a job runs are coalesced
// into one more run after it, so the view always ends on the latest parameters and the
// GUI thread never computes.
#pragma once
#include "ui/jobs/job.hpp"

#include <QObject>
#include <QTimer>
#include <functional>
#include <optional>

namespace clscope::ui {

class JobRunner;

class LiveRerun : public QObject {
    Q_OBJECT
  public:
    // makeJob returns nothing when there is nothing to run yet (no data open, say).
    LiveRerun(JobRunner& runner, std::function<std::optional<Job>()> makeJob, int delayMs = 150,
              QObject* parent = nullptr);
    void setEnabled(bool enabled) { enabled_ = enabled; }
    bool isEnabled() const { return enabled_; }
    // The parameters changed: run again once they settle.
    void request();
    // Whether a run is waiting for the timer or for the runner.
    bool isPending() const { return timer_.isActive() || waiting_; }

  signals:
    void submitted();

  private:
    void fire();
    JobRunner& runner_;
    std::function<std::optional<Job>()> makeJob_;
    QTimer timer_;
    bool enabled_ = true;
    bool waiting_ = false; // the runner was busy when the timer fired
};

} // namespace clscope::ui
