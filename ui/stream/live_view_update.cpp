// LiveView while a series comes in: the newest frame and the per-frame curves (~30 Hz), the
// overlays of the frame on screen, frames/s and the series analyses (1 Hz), the status line, the
// latency, the summary for scripts and the screenshot.
#include "ui/image/image_view.hpp"
#include "ui/stream/live_chart.hpp"
#include "ui/stream/live_view.hpp"

#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QtConcurrent/QtConcurrent>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

// The newest frame every analysis has been through (so frame and overlay agree).
void LiveView::showNewest() {
    const auto frames = receiver_->frames();
    if (!frames) return;
    const std::size_t n = receiver_->framesAnalysed();
    if (n == 0 || n == shown_) return;
    if (!sourceSet_) {
        image_->setFrameSource(frames);
        image_->setPixelMask(receiver_->context().mask.bad);
        sourceSet_ = true;
    }
    shown_ = n;
    image_->controls()->setFrameCount(n);
    image_->controls()->setFrame(n - 1);
    drawOverlays();
    maybeScreenshot(false);
}

void LiveView::drawOverlays() {
    if (!sourceSet_) return;
    for (const auto& a : receiver_->analyses())
        a->draw(image_->plot(), image_->controls()->frame());
    image_->plot()->replot(QCustomPlot::rpQueuedReplot);
}

void LiveView::updateChart() {
    const auto frames = receiver_->frames();
    const std::size_t count = frames ? frames->frameCount() : 0;
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - lastTick_).count();
    if (dt > 0.2) {
        rate_ = double(count - lastCount_) / dt;
        if (count > lastCount_) chart_->addRate(double(count), rate_);
    }
    lastTick_ = now, lastCount_ = count;
    chart_->replot();
    updateStatus();
}

// The points of the frames analysed since the last call, drawn at once; each frame's latency is
// from its arrival to the end of that repaint.
void LiveView::plotValues() {
    const std::size_t from = chart_->framesPlotted();
    chart_->append(receiver_->values(from));
    const std::size_t to = chart_->framesPlotted();
    if (to == from) return;
    chart_->replot();
    const auto shown = std::chrono::steady_clock::now();
    for (std::size_t i = from; i < to; ++i)
        latencyMs_.push_back(
            std::chrono::duration<double, std::milli>(shown - receiver_->arrival(i)).count());
    showLatency();
}

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return std::nan("");
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

} // namespace

void LiveView::showLatency() {
    if (latencyMs_.empty()) return latency_->clear();
    latency_->setText(QString("receive → plot: %1 ms (median %2 ms)")
                          .arg(latencyMs_.back(), 0, 'f', 0)
                          .arg(median(latencyMs_), 0, 'f', 0));
}

QStringList LiveView::summary() const {
    QStringList curves;
    for (const LiveQuantity& q : receiver_->curves())
        curves << q.name + " [" + q.axis + "]";
    QStringList lines{"live curves: " + (curves.isEmpty() ? "none" : curves.join(", "))};
    if (const QString note = chart_->note(); !note.isEmpty())
        lines << "live note: " + QString(note).replace('\n', ' ');
    if (!chart_->hitQuantity().isEmpty())
        lines << QString("live hit rate: %1 % of %2 frames at ≥ %3 %4")
                     .arg(chart_->hitRateNow(), 0, 'f', 1)
                     .arg(chart_->framesPlotted())
                     .arg(hitThreshold_->value())
                     .arg(chart_->hitQuantity());
    if (!latencyMs_.empty())
        lines << QString("live latency receive to plot: latest %1 ms, median %2 ms over %3 frames")
                     .arg(latencyMs_.back(), 0, 'f', 1)
                     .arg(median(latencyMs_), 0, 'f', 1)
                     .arg(latencyMs_.size());
    return lines;
}

// Each series analysis runs again over the frames kept so far when more came and its last run is
// done (off the GUI thread); what it returns draws here.
void LiveView::updateSeries() {
    const auto frames = receiver_->frames();
    if (!frames) return;
    const std::size_t count = frames->frameCount();
    for (Series& s : series_) {
        if (s.busy || count == s.frames) continue;
        s.frames = count, s.busy = true;
        LiveSeriesAnalysis* analysis = s.analysis.get();
        auto* watcher = s.watcher.get();
        watcher->setFuture(QtConcurrent::run([analysis, frames, count] {
            try {
                return std::make_pair(analysis->analyse(frames->kept().frames), QString());
            } catch (const std::exception& e) {
                return std::make_pair(std::function<void()>(), QString("%1 over %2 frames: %3")
                                                                   .arg(analysis->title())
                                                                   .arg(count)
                                                                   .arg(e.what()));
            }
        }));
    }
}

void LiveView::showSeries(Series& s) {
    const auto [show, error] = s.watcher->result();
    s.busy = false;
    if (!error.isEmpty() || show) { // nothing to show yet: the note still says it waits
        s.note->setText(error);
        s.note->setStyleSheet(error.isEmpty() ? "" : "color: #b00000");
    }
    if (show) {
        show(), ++seriesUpdates_;
        if (s.analysis->widget()->isHidden()) { // its first drawing: the side shared
            s.analysis->widget()->show();
            shareSide();
        }
    }
    if (!ended_.isEmpty()) updateSeries(); // the frames that came during this run
    maybeScreenshot(false);
}

// The strip chart's stacked plots weigh 3, each series plot 2 (an even split squeezed the
// chart's three axes at 1280x800 until their labels overlapped).
void LiveView::shareSide() {
    const int weights = 3 + 2 * (side_->count() - 1);
    QList<int> sizes(side_->count(), 2 * side_->height() / weights);
    sizes[0] = 3 * side_->height() / weights;
    side_->setSizes(sizes);
}

bool LiveView::seriesCurrent() const {
    const auto frames = receiver_->frames();
    for (const Series& s : series_)
        if (s.busy || !frames || s.frames != frames->frameCount()) return false;
    return true;
}

void LiveView::updateStatus() {
    const auto frames = receiver_->frames();
    QString text;
    const bool overSeries = !ended_.isEmpty() && seriesRate_ > 0; // else the last tick's
    if (frames)
        text = QString::fromStdString(frames->description()) +
               QString(" — %1 received, %2 analysed, %3 frames/s%4")
                   .arg(frames->frameCount())
                   .arg(receiver_->framesAnalysed())
                   .arg(overSeries ? seriesRate_ : rate_, 0, 'f', 1)
                   .arg(overSeries ? " over the series" : "");
    if (frames && frames->firstKept())
        text += QString(" — %1: the series analyses and Save cover the frames kept")
                    .arg(QString::fromStdString(frames->droppedText()));
    if (!stall_.isEmpty()) text += (text.isEmpty() ? "" : " — ") + stall_;
    if (!ended_.isEmpty()) text += (text.isEmpty() ? "" : " — ") + ended_;
    if (!text.isEmpty()) showStatus(text);
}

void LiveView::screenshotHalfway(QString path, std::function<void(bool)> done) {
    screenshotPath_ = std::move(path);
    screenshotDone_ = std::move(done);
}

void LiveView::maybeScreenshot(bool ended) {
    if (screenshotPath_.isEmpty()) return;
    const auto frames = receiver_->frames();
    const std::size_t announced = frames ? frames->start().numberOfImages : 0;
    // Halfway through the frames announced, or the series' end (also one that ended early).
    const bool halfway = ended || !ended_.isEmpty() || (announced && shown_ * 2 >= announced);
    bool seriesBusy = false;
    for (const Series& s : series_)
        seriesBusy = seriesBusy || s.busy;
    const bool drawn = series_.empty() || seriesUpdates_ > 0 || (!ended_.isEmpty() && !seriesBusy);
    if (!halfway || !drawn) return;
    const QString path = std::exchange(screenshotPath_, {});
    plotValues();
    updateChart();
    // The layouts the new texts asked for (status line, frame count), before the grab.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const bool ok = grab().save(path);
    if (screenshotDone_) screenshotDone_(ok);
}

} // namespace clscope::ui
