#include "ui/cluster/cluster_histograms.hpp"

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

bool isCharge(const ClusterHistogram& h) {
    return h.unit == "e-";
}

// Charges are drawn in ke- (bins of 2 ke-), sizes in pixels.
double displayScale(const ClusterHistogram& h) {
    return isCharge(h) ? 1e-3 : 1.0;
}

void addBars(QCPAxisRect* rect, const ClusterHistogram& h) {
    QCPAxis *x = rect->axis(QCPAxis::atBottom), *y = rect->axis(QCPAxis::atLeft);
    auto* bars = new QCPBars(x, y);
    const double scale = displayScale(h);
    QVector<double> centres, counts;
    double top = 1;
    for (std::size_t b = 0; b < h.counts.size(); ++b) {
        centres << 0.5 * (h.edges[b] + h.edges[b + 1]) * scale;
        counts << h.counts[b];
        top = std::max(top, h.counts[b]);
    }
    bars->setData(centres, counts, true);
    bars->setWidth((h.edges[1] - h.edges[0]) * scale);
    bars->setPen(QPen(QColor(31, 119, 180).darker(130), 0.5));
    bars->setBrush(QColor(31, 119, 180));
    x->setLabel(histogramAxisLabel(h));
    y->setLabel("clusters");
    x->setRange(h.edges.front() * scale, h.edges.back() * scale);
    y->setRange(0, top * 1.08);
    if (!isCharge(h)) {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
        ticker->setTickStep(1.0);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        ticker->setTickCount(3);
        x->setTicker(ticker);
    }
}

void addThresholds(QCPAxisRect* rect, const std::vector<double>& thresholds) {
    for (double t : thresholds) {
        auto* line = new QCPItemStraightLine(rect->parentPlot());
        line->setClipAxisRect(rect);
        for (QCPItemPosition* p : {line->point1, line->point2})
            p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        line->point1->setCoords(t * 1e-3, 0);
        line->point2->setCoords(t * 1e-3, 1);
        line->setPen(QPen(QColor(200, 30, 30), 1.5, Qt::DashLine));
    }
}

QString titleOf(const ClusterHistogram& h) {
    QString title = QString::fromStdString(h.quantity);
    // Sizes are whole pixels: the last edge (30.5) reads "above 30 pixels".
    const double last = isCharge(h) ? h.edges.back() * displayScale(h) : std::floor(h.edges.back());
    if (h.overflow > 0)
        title += QString(" (%1 above %2 %3)")
                     .arg(h.overflow)
                     .arg(last)
                     .arg(isCharge(h) ? "ke⁻" : "pixels");
    return title;
}

} // namespace

QString histogramAxisLabel(const ClusterHistogram& h) {
    return QString::fromStdString(h.quantity) + (isCharge(h) ? " (ke⁻)" : " (pixels)");
}

ClusterHistogramsView::ClusterHistogramsView(QWidget* parent) : QWidget(parent) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(200);
    plot_->setMinimumWidth(400); // not the sum of the four axis rects: the window fits 1600 px
    box->addWidget(plot_);
}

void ClusterHistogramsView::setHistograms(const std::vector<ClusterHistogram>& histograms,
                                          const std::vector<double>& thresholds) {
    plot_->clearItems();
    plot_->clearPlottables();
    QCPLayoutGrid* grid = plot_->plotLayout();
    grid->clear();
    auto* margins = new QCPMarginGroup(plot_);
    for (std::size_t i = 0; i < histograms.size(); ++i) {
        const int column = static_cast<int>(i);
        auto* rect = new QCPAxisRect(plot_);
        grid->addElement(0, column, new QCPTextElement(plot_, titleOf(histograms[i])));
        grid->addElement(1, column, rect);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom | QCP::msLeft, margins);
        addBars(rect, histograms[i]);
        if (isCharge(histograms[i])) addThresholds(rect, thresholds);
    }
    grid->setRowStretchFactor(0, 0.01);
    plot_->replot();
}

} // namespace clscope::ui
