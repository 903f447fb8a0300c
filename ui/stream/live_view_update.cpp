// LiveView while a series comes in: the newest frame (~30 Hz), the overlays of the frame on
// screen, the strip chart and the series analyses (1 Hz), the status line and the screenshot.
#include "ui/image/image_view.hpp"
#include "ui/stream/live_view.hpp"

#include <QLabel>
#include <QSplitter>
#include <QTimer>
#include <QtConcurrent/QtConcurrent>
#include <qcustomplot.h>

namespace clscope::ui {

void LiveView::buildChart() {
    chart_ = new QCustomPlot(side_);
    chart_->setMinimumSize(300, 220);
    chart_->plotLayout()->insertRow(0);
    chart_->plotLayout()->addElement(0, 0, new QCPTextElement(chart_, "Frames received"));
    chart_->xAxis->setLabel("frame");
    chart_->yAxis->setLabel("per frame");
    chart_->yAxis2->setLabel("frames/s received");
    chart_->yAxis2->setVisible(true);
    chart_->legend->setVisible(true);
    // The legend in a row of its own under the axes: never over the data.
    chart_->axisRect()->insetLayout()->take(chart_->legend);
    chart_->plotLayout()->addElement(2, 0, chart_->legend);
    chart_->plotLayout()->setRowStretchFactor(2, 0.001);
    chart_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    auto* rate = chart_->addGraph(chart_->xAxis, chart_->yAxis2);
    rate->setName("frames/s (right axis)");
    rate->setPen(QPen(QColor(120, 120, 120), 1.5, Qt::DashLine));
}

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
        if (count > lastCount_) chart_->graph(0)->addData(double(count), rate_);
    }
    lastTick_ = now, lastCount_ = count;
    const auto values = receiver_->values();
    const auto& analyses = receiver_->analyses();
    for (std::size_t a = 0; a < values.size(); ++a) {
        if (chart_->graphCount() <= int(a) + 1) {
            auto* g = chart_->addGraph();
            g->setName(analyses[a]->quantity());
            g->setPen(QPen(QColor::fromHsv(int(a) * 90 + 210, 200, 200), 1.5));
            if (values.size() == 1) chart_->yAxis->setLabel(analyses[a]->quantity());
        }
        QVector<double> x(int(values[a].size())), y(x.size());
        for (int i = 0; i < x.size(); ++i)
            x[i] = i, y[i] = values[a][std::size_t(i)];
        chart_->graph(int(a) + 1)->setData(x, y, true);
    }
    chart_->rescaleAxes();
    chart_->yAxis->setRangeLower(0), chart_->yAxis2->setRangeLower(0);
    chart_->replot();
    updateStatus();
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
        if (s.analysis->widget()->isHidden()) { // its first drawing: the side shared evenly
            s.analysis->widget()->show();
            side_->setSizes(QList<int>(side_->count(), side_->height() / side_->count()));
        }
    }
    if (!ended_.isEmpty()) updateSeries(); // the frames that came during this run
    maybeScreenshot(false);
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
    updateChart();
    // The layouts the new texts asked for (status line, frame count), before the grab.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const bool ok = grab().save(path);
    if (screenshotDone_) screenshotDone_(ok);
}

} // namespace clscope::ui
