#include "ui/stream/live_chart.hpp"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

QColor curveColour(std::size_t i) {
    static const QColor colours[] = {QColor(31, 119, 180), QColor(214, 39, 40),
                                     QColor(44, 160, 44),  QColor(148, 103, 189),
                                     QColor(255, 127, 14), QColor(23, 190, 207)};
    return colours[i % std::size(colours)];
}

// The frame axis of every rect the same: frames 0 .. n-1.
void setFrameRange(QCPAxisRect* rect, double frames) {
    rect->axis(QCPAxis::atBottom)->setRange(-0.5, std::max(1.0, frames - 0.5));
}

// From 0 to a little above the highest value drawn against the axis (or 0..1 with none).
void fitFromZero(QCPAxis* axis) {
    double top = 0;
    for (QCPGraph* g : axis->graphs()) {
        bool found = false;
        const QCPRange r = g->getValueRange(found);
        if (found) top = std::max(top, r.upper);
    }
    axis->setRange(0, top > 0 ? top * 1.08 : 1);
}

} // namespace

std::vector<double> hitRate(const std::vector<double>& values, double threshold) {
    std::vector<double> rate(values.size());
    std::size_t hits = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        hits += isHit(values[i], threshold);
        rate[i] = 100.0 * double(hits) / double(i + 1);
    }
    return rate;
}

LiveChart::LiveChart(QWidget* parent) : plot_(new QCustomPlot(parent)) {
    plot_->setMinimumSize(300, 220);
    margins_ = new QCPMarginGroup(plot_);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, "Per frame"));
    QCPAxisRect* first = plot_->axisRect();
    first->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    plot_->yAxis->setLabel("per frame");
    plot_->yAxis2->setLabel("frames/s received");
    plot_->yAxis2->setVisible(true);
    plot_->legend->setVisible(true);
    // The legend in rows of its own under the axes: never over the data.
    first->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(2, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(2, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(2);              // 3 cut the names at 1280×800 (the chart ~490 px wide)
    plot_->legend->setBorderPen(Qt::NoPen); // its frame's right edge fell on the widget's
    rate_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    rate_->setName("frames/s (right axis)");
    rate_->setPen(QPen(QColor(120, 120, 120), 1.5, Qt::DashLine));
    rects_.emplace_back(QString(), first);
    labelFrameAxes();
}

void LiveChart::reset() {
    for (QCPGraph* g : curves_)
        plot_->removeGraph(g);
    if (hits_) plot_->removeGraph(hits_);
    curves_.clear(), names_.clear(), hitValues_.clear(), series_.clear(), hitSeries_.clear();
    hits_ = nullptr, hitCurve_ = std::size_t(-1), plotted_ = hitCount_ = 0;
    for (std::size_t r = 1; r < rects_.size(); ++r)
        plot_->plotLayout()->remove(rects_[r].second);
    rects_.resize(1);
    rects_[0].first.clear();
    plot_->yAxis->setLabel("per frame");
    if (note_) plot_->plotLayout()->remove(std::exchange(note_, nullptr));
    plot_->plotLayout()->simplify();
    rate_->data()->clear();
    labelFrameAxes();
    plot_->replot();
}

void LiveChart::setCurves(const std::vector<LiveQuantity>& curves, const QStringList& notes) {
    for (std::size_t c = 0; c < curves.size(); ++c) {
        QCPAxisRect* rect = rectFor(curves[c].axis);
        if (curves[c].reversed) rect->axis(QCPAxis::atLeft)->setRangeReversed(true);
        curves_.push_back(addCurve(curves[c].name, rect));
        series_.emplace_back();
        names_.push_back(curves[c].name);
        if (curves[c].hits && !hits_) addHitRate(c);
    }
    if (!notes.isEmpty()) { // under the title, over the axes
        note_ = new QCPTextElement(plot_, notes.join("\n"));
        note_->setTextColor(QColor(90, 90, 90));
        QFont font = note_->font();
        font.setPointSizeF(font.pointSizeF() * 0.9);
        note_->setFont(font);
        plot_->plotLayout()->insertRow(1);
        plot_->plotLayout()->addElement(1, 0, note_);
    }
    labelFrameAxes();
}

namespace {

// "mean intensity (counts)" as "mean intensity" over "(counts)": a stacked rect is shorter
// than its label's one line once a series plot shares the side (1280x800).
QString twoLines(QString axis) {
    const qsizetype unit = axis.lastIndexOf(" (");
    if (unit > 0) axis[unit] = '\n';
    return axis;
}

} // namespace

// The rect of the axis labelled `axis`: the first one while it has no label, else a new one
// over the legend.
QCPAxisRect* LiveChart::rectFor(const QString& axis) {
    for (const auto& [label, rect] : rects_)
        if (label == axis) return rect;
    if (rects_.front().first.isEmpty()) {
        rects_.front().first = axis;
        plot_->yAxis->setLabel(twoLines(axis));
        return rects_.front().second;
    }
    auto* rect = new QCPAxisRect(plot_);
    QCPLayoutGrid* layout = plot_->plotLayout();
    const int row = layout->rowCount() - 1; // the legend's
    layout->insertRow(row);
    layout->addElement(row, 0, rect);
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    rect->axis(QCPAxis::atLeft)->setLabel(twoLines(axis));
    // An empty right axis, so the rects' plots are as wide as the first's (frames/s on the right).
    rect->axis(QCPAxis::atRight)->setVisible(true);
    rect->axis(QCPAxis::atRight)->setTickLabels(false);
    rect->axis(QCPAxis::atRight)->setTicks(false);
    rects_.emplace_back(axis, rect);
    return rect;
}

QCPGraph* LiveChart::addCurve(const QString& name, QCPAxisRect* rect) {
    QCPGraph* g = plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    g->setName(name);
    g->setPen(QPen(curveColour(curves_.size()), 1.5));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
    return g;
}

void LiveChart::addHitRate(std::size_t curve) {
    hitCurve_ = curve;
    QCPAxisRect* rect = rectFor("hit rate (%)");
    hits_ = plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    hits_->setPen(QPen(QColor(60, 60, 60), 1.5));
    hits_->setName(hitName());
}

QString LiveChart::hitName() const {
    return QString("hit rate (≥ %1 %2)").arg(threshold_).arg(hitQuantity());
}

QString LiveChart::hitQuantity() const {
    return hitCurve_ < names_.size() ? names_[hitCurve_] : QString();
}

double LiveChart::hitRateNow() const {
    return hitValues_.empty() ? std::nan("")
                              : 100.0 * double(hitCount_) / double(hitValues_.size());
}

std::vector<double> LiveChart::drawn(const QString& name) const {
    std::vector<double> out;
    for (int g = 0; g < plot_->graphCount(); ++g)
        if (plot_->graph(g)->name() == name ||
            (plot_->graph(g) == hits_ && name.startsWith("hit rate")))
            for (auto it = plot_->graph(g)->data()->constBegin();
                 it != plot_->graph(g)->data()->constEnd(); ++it)
                out.push_back(it->value);
    return out;
}

QString LiveChart::note() const {
    return note_ ? note_->text() : QString();
}

// Frame numbers and the label "frame" under the last rect only; the rects above share its axis.
void LiveChart::labelFrameAxes() {
    for (std::size_t r = 0; r < rects_.size(); ++r) {
        QCPAxis* x = rects_[r].second->axis(QCPAxis::atBottom);
        const bool last = r + 1 == rects_.size();
        x->setTickLabels(last);
        x->setLabel(last ? "frame" : "");
    }
}

void LiveChart::addRate(double frames, double perSecond) {
    rate_->addData(frames, perSecond);
}

void LiveChart::append(const std::vector<std::vector<double>>& values) {
    if (values.size() != curves_.size() || values.empty()) return;
    std::size_t n = values[0].size();
    for (const auto& v : values)
        n = std::min(n, v.size());
    for (std::size_t c = 0; c < curves_.size(); ++c) {
        for (std::size_t i = 0; i < n; ++i)
            addPoint(curves_[c], series_[c], double(plotted_ + i), values[c][i]);
        if (series_[c].thinned()) draw(curves_[c], series_[c]);
    }
    for (std::size_t i = 0; hits_ && i < n; ++i) {
        const double v = values[hitCurve_][i];
        hitValues_.push_back(v);
        hitCount_ += isHit(v, threshold_);
        addPoint(hits_, hitSeries_, double(hitValues_.size() - 1),
                 100.0 * double(hitCount_) / double(hitValues_.size()));
    }
    if (hits_ && hitSeries_.thinned()) draw(hits_, hitSeries_);
    plotted_ += n;
}

// A point into the series, and onto the graph as it is while the series is not thinned.
void LiveChart::addPoint(QCPGraph* graph, ThinnedSeries& series, double key, double value) {
    series.add(key, value);
    if (!series.thinned()) graph->addData(key, value);
}

// A thinned series' points as the graph's (without markers: a bucket's two points are close).
void LiveChart::draw(QCPGraph* graph, const ThinnedSeries& series) {
    QVector<double> keys, values;
    series.points(keys, values);
    graph->setData(keys, values, true);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
}

void LiveChart::setHitThreshold(double threshold) {
    threshold_ = threshold;
    if (!hits_) return;
    hits_->setName(hitName());
    const std::vector<double> rate = hitRate(hitValues_, threshold_);
    hitSeries_.clear();
    for (std::size_t i = 0; i < rate.size(); ++i)
        hitSeries_.add(double(i), rate[i]);
    draw(hits_, hitSeries_);
    hitCount_ = std::size_t(std::count_if(hitValues_.begin(), hitValues_.end(),
                                          [this](double v) { return isHit(v, threshold_); }));
}

void LiveChart::rescale() {
    double frames = double(plotted_);
    if (!rate_->data()->isEmpty()) frames = std::max(frames, (rate_->data()->constEnd() - 1)->key);
    for (const auto& [label, rect] : rects_) {
        setFrameRange(rect, frames);
        fitFromZero(rect->axis(QCPAxis::atLeft));
        // A tick about every 25 px: a short rect (four stacked at 1280x800) keeps its numbers
        // apart.
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(std::clamp(rect->height() / 25, 2, 5));
    }
    fitFromZero(plot_->yAxis2);
    plot_->yAxis2->ticker()->setTickCount(std::clamp(plot_->axisRect()->height() / 25, 2, 5));
    if (hits_) hits_->valueAxis()->setRange(0, 105);
}

void LiveChart::replot() {
    rescale();
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

} // namespace clscope::ui
