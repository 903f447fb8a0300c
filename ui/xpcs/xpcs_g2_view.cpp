#include "ui/xpcs/xpcs_g2_view.hpp"

#include "ui/image/colormaps.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {
QVector<double> qvec(const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); }
} // namespace

QColor binColor(std::int32_t label) {
    const auto& palette = labelPalette();
    const int n = static_cast<int>(palette.size());
    return palette[((label - 1) % n + n) % n];
}

XpcsG2View::XpcsG2View(std::shared_ptr<const XpcsPresenter> presenter, QString title, QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    plot_ = new QCustomPlot(splitter);
    plot_->plotLayout()->insertRow(0);
    title_ = new QCPTextElement(plot_, title, QFont(font().family(), 9));
    plot_->plotLayout()->addElement(0, 0, title_);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot_->xAxis->setNumberFormat("eb");
    plot_->xAxis->setNumberPrecision(0);
    plot_->xAxis->setLabel(QString("lag time τ (%1)").arg(QString::fromStdString(presenter_->tauUnit())));
    plot_->yAxis->setLabel("g₂(τ)");
    plot_->legend->setVisible(true);
    plot_->legend->setBrush(QColor(255, 255, 255, 220));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    auto* side = new QWidget(splitter);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(2, 2, 2, 2);
    sideLayout->addWidget(new QLabel("Bins", side));
    bins_ = new QListWidget(side);
    bins_->setToolTip("Check the q bins to plot");
    sideLayout->addWidget(bins_, 1);
    auto* defaults = new QPushButton("Default", side);
    defaults->setToolTip("About five bins spread over the range");
    sideLayout->addWidget(defaults);
    splitter->addWidget(plot_);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 1);
    splitter->setSizes({600, 110});
    layout->addWidget(splitter);
    fillBinList();
    connect(bins_, &QListWidget::itemChanged, this, [this] {
        refresh();
        emit selectionChanged();
    });
    connect(defaults, &QPushButton::clicked, this, [this] { setSelectedBins(presenter_->defaultSelection()); });
    setSelectedBins(presenter_->defaultSelection());
}

void XpcsG2View::fillBinList() {
    const QSignalBlocker block(bins_);
    bins_->clear();
    for (std::size_t b = 0; b < presenter_->binCount(); ++b) {
        auto* item = new QListWidgetItem(QString::fromStdString(presenter_->legendText(b)), bins_);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        QPixmap swatch(10, 10);
        swatch.fill(binColor(presenter_->reference().labels[b]));
        item->setIcon(QIcon(swatch));
    }
}

std::vector<std::size_t> XpcsG2View::selectedBins() const {
    std::vector<std::size_t> out;
    for (int i = 0; i < bins_->count(); ++i)
        if (bins_->item(i)->checkState() == Qt::Checked) out.push_back(static_cast<std::size_t>(i));
    return out;
}

void XpcsG2View::setSelectedBins(const std::vector<std::size_t>& bins) {
    {
        const QSignalBlocker block(bins_);
        for (int i = 0; i < bins_->count(); ++i) {
            const bool on = std::find(bins.begin(), bins.end(), static_cast<std::size_t>(i)) != bins.end();
            bins_->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        }
    }
    refresh();
    emit selectionChanged();
}

void XpcsG2View::refresh() {
    plot_->clearPlottables();
    bool anyFit = false;
    for (std::size_t bin : selectedBins()) {
        const XpcsSeries series = presenter_->series(bin);
        drawSeries(series);
        anyFit = anyFit || !series.fitTau.empty();
    }
    if (anyFit) {
        // One legend entry that explains the dashed curves.
        auto* key = plot_->addGraph();
        key->setPen(QPen(Qt::darkGray, 1.5, Qt::DashLine));
        key->setName(presenter_->fitOptions().stretched ? "fits: stretched exponential" : "fits: single exponential");
    }
    rescaleAxes();
    plot_->replot();
}

// Data as markers with error bars; the fit dashed in the same colour, not in the legend.
void XpcsG2View::drawSeries(const XpcsSeries& series) {
    const QColor color = binColor(series.label);
    auto* data = plot_->addGraph();
    data->setName(QString::fromStdString(series.legend));
    data->setLineStyle(QCPGraph::lsNone);
    data->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 4));
    data->setPen(QPen(color));
    data->setData(qvec(series.tau), qvec(series.g2), true);
    auto* errors = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    errors->removeFromLegend();
    errors->setDataPlottable(data);
    errors->setData(qvec(series.err));
    errors->setPen(QPen(color.lighter(130), 1));
    errors->setWhiskerWidth(3);
    if (series.fitTau.empty()) return;
    auto* fit = plot_->addGraph();
    fit->removeFromLegend();
    fit->setPen(QPen(color.darker(115), 2, Qt::DashLine));
    fit->setData(qvec(series.fitTau), qvec(series.fitG2), true);
}

// τ over the positive lags; g2 over the plotted values with a little room.
void XpcsG2View::rescaleAxes() {
    double lo = INFINITY, hi = -INFINITY, tauLo = INFINITY, tauHi = -INFINITY;
    for (std::size_t bin : selectedBins()) {
        const XpcsSeries s = presenter_->series(bin);
        for (std::size_t i = 0; i < s.tau.size(); ++i) {
            lo = std::min(lo, s.g2[i]), hi = std::max(hi, s.g2[i]);
            tauLo = std::min(tauLo, s.tau[i]), tauHi = std::max(tauHi, s.tau[i]);
        }
    }
    if (!(hi >= lo)) lo = 0.9, hi = 1.1, tauLo = 1, tauHi = 10;
    const double pad = std::max(0.05 * (hi - lo), 1e-3);
    plot_->yAxis->setRange(lo - pad, hi + pad);
    plot_->xAxis->setRange(tauLo / 1.3, tauHi * 1.3);
}

} // namespace clscope::ui
