#include "ui/xpcs/xpcs_difference_view.hpp"

#include "ui/xpcs/xpcs_g2_view.hpp"

#include <QCheckBox>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// Up to `count` bins spread over the bins, first and last included.
std::vector<std::size_t> spreadBins(std::size_t bins, std::size_t count) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < std::min(bins, count); ++i) {
        const std::size_t b = bins <= count ? i : i * (bins - 1) / (count - 1);
        if (out.empty() || out.back() != b) out.push_back(b);
    }
    return out;
}

void logTauAxis(QCustomPlot* plot, const QString& unit) {
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot->xAxis->setLabel(QString("τ (%1)").arg(unit));
    plot->setMinimumHeight(130);
}

} // namespace

XpcsDifferenceView::XpcsDifferenceView(xpcs::Result a, std::string labelA, xpcs::Result b,
                                       std::string labelB, QWidget* parent)
    : QWidget(parent), a_(std::move(a)), b_(std::move(b)), labelA_(std::move(labelA)),
      labelB_(std::move(labelB)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    const QString unit = a_.tauInSeconds ? "s" : "frames";
    curves_ = new QCustomPlot(this);
    difference_ = new QCustomPlot(this);
    logTauAxis(curves_, unit);
    logTauAxis(difference_, unit);
    curves_->yAxis->setLabel("g2");
    curves_->legend->setVisible(true);
    curves_->legend->setFont(QFont(font().family(), 8));
    // The legend beside the plot, not over the curves.
    curves_->axisRect()->insetLayout()->take(curves_->legend);
    curves_->plotLayout()->addElement(0, 1, curves_->legend);
    curves_->plotLayout()->setColumnStretchFactor(1, 0.001);
    errorUnits_ = new QCheckBox("difference in units of g2_err", this);
    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    layout->addWidget(curves_, 3);
    layout->addWidget(difference_, 2);
    auto* row = new QHBoxLayout;
    row->addWidget(errorUnits_);
    row->addWidget(caption_, 1);
    layout->addLayout(row);
    connect(errorUnits_, &QCheckBox::toggled, this, &XpcsDifferenceView::refresh);
    refresh();
}

void XpcsDifferenceView::refresh() {
    curves_->clearGraphs();
    difference_->clearGraphs();
    const bool comparable = a_.frames == b_.frames && a_.labels == b_.labels;
    if (!comparable) {
        caption_->setText("The two runs have different bins or lags: nothing to overlay.");
        curves_->replot(), difference_->replot();
        return;
    }
    const bool inErr = errorUnits_->isChecked();
    std::size_t skipped = 0;
    double most = 0;
    const auto bins = spreadBins(a_.binCount(), 4);
    for (std::size_t k = 0; k < bins.size(); ++k) {
        const std::size_t bin = bins[k];
        const QColor color = seriesColor(k);
        QVector<double> tau, ga, gb, diff;
        for (std::size_t t = 1; t < a_.frames; ++t) {
            const double va = a_.g2At(bin, t), vb = b_.g2At(bin, t), err = b_.g2ErrAt(bin, t);
            if (!(a_.tau[t] > 0) || !std::isfinite(va) || !std::isfinite(vb)) {
                skipped += std::isnan(va) != std::isnan(vb);
                continue;
            }
            tau << a_.tau[t], ga << va, gb << vb;
            diff << (inErr ? (err > 0 ? (va - vb) / err : 0.0) : va - vb);
            most = std::max(most, std::abs(diff.back()));
        }
        auto* la = curves_->addGraph();
        la->setData(tau, ga, true);
        la->setPen(QPen(color, 1.5));
        la->setName(QString("label %1").arg(a_.labels[bin]));
        auto* lb = curves_->addGraph();
        lb->setData(tau, gb, true);
        lb->setPen(QPen(color, 1.5, Qt::DashLine));
        lb->removeFromLegend();
        auto* d = difference_->addGraph();
        d->setData(tau, diff, true);
        d->setPen(QPen(color, 1.2));
    }
    difference_->yAxis->setLabel(inErr ? "Δg2 / g2_err" : "Δg2 = a − b");
    curves_->rescaleAxes();
    difference_->rescaleAxes();
    if (most == 0) difference_->yAxis->setRange(-1, 1);
    caption_->setText(
        QString("solid: %1, dashed: %2; max |Δ| over the bins shown: %3%4")
            .arg(QString::fromStdString(labelA_), QString::fromStdString(labelB_))
            .arg(most, 0, 'g', 3)
            .arg(skipped ? QString("; %1 lags NaN in one run only (left out)").arg(skipped) : ""));
    curves_->replot();
    difference_->replot();
}

} // namespace clscope::ui
