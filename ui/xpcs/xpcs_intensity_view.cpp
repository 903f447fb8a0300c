#include "ui/xpcs/xpcs_intensity_view.hpp"
#include "ui/base/q_unit.hpp"

#include "ui/xpcs/xpcs_g2_view.hpp"

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

QCustomPlot* makePlot(QWidget* parent, const QString& title) {
    auto* layout = new QVBoxLayout(parent);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumSize(320, 220);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(plot, title, QFont(parent->font().family(), 9)));
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // The legend in a column right of the axes, never over the data.
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->take(plot->legend);
    // At the top of that column: an empty element below takes the rest of its height.
    auto* side = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 1, side);
    plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    side->addElement(0, 0, plot->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot));
    side->setRowStretchFactor(0, 0.001);
    plot->legend->setBorderPen(Qt::NoPen);
    layout->addWidget(plot);
    return plot;
}

QString frameAxis(const XpcsPresenter& p) {
    return p.frameSeconds() ? "time since the first frame t (s)" : "frame (from the first)";
}

const QString intensityAxis = "mean intensity ⟨I⟩ (counts / pixel / frame)";

} // namespace

XpcsIntensityView::XpcsIntensityView(std::shared_ptr<const XpcsPresenter> presenter,
                                     QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    plot_ = makePlot(this, "Intensity against time per q bin (stability)");
    plot_->xAxis->setLabel(frameAxis(*presenter_));
    plot_->yAxis->setLabel(intensityAxis);
    setBins(presenter_->defaultSelection());
}

void XpcsIntensityView::setBins(const std::vector<std::size_t>& bins) {
    bins_ = bins;
    plot_->clearPlottables();
    const auto& in = presenter_->intensity();
    const double dt = presenter_->frameSeconds().value_or(1.0);
    std::size_t rank = 0;
    for (std::size_t b : bins_) {
        if (!in || b >= in->binCount()) continue;
        QVector<double> t(static_cast<int>(in->frames)), y(static_cast<int>(in->frames));
        for (std::size_t f = 0; f < in->frames; ++f)
            t[int(f)] = double(f) * dt, y[int(f)] = in->at(b, f);
        auto* graph = plot_->addGraph();
        graph->setPen(QPen(seriesColor(rank++), 1.5));
        graph->setData(t, y, true);
        graph->setName(QString::fromStdString(presenter_->legendText(b)));
    }
    plot_->rescaleAxes();
    const QCPRange y = plot_->yAxis->range();
    const double pad = std::max(0.05 * y.size(), 1e-6 * std::abs(y.center()) + 1e-9);
    plot_->yAxis->setRange(y.lower - pad, y.upper + pad);
    plot_->replot();
}

XpcsIqView::XpcsIqView(std::shared_ptr<const XpcsPresenter> presenter, QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    plot_ = makePlot(this, "I(q): mean intensity per q bin over the frames");
    refresh();
}

void XpcsIqView::refresh() {
    plot_->clearPlottables();
    const auto& in = presenter_->intensity();
    if (!in) return;
    const bool withQ = presenter_->hasQ() && presenter_->binCount() == in->binCount();
    const auto mean = in->timeMean(), spread = in->timeSpread();
    QVector<double> x, y, err;
    for (std::size_t b = 0; b < in->binCount(); ++b) {
        x << (withQ ? presenter_->binQ(b).value_or(NAN) : double(in->labels[b]));
        y << mean[b], err << spread[b];
    }
    const bool logY = std::all_of(y.begin(), y.end(), [](double v) { return v > 0; });
    plot_->xAxis->setLabel(withQ ? "q (" + qUnit + ")" : "q bin label (no q known)");
    plot_->yAxis->setLabel(intensityAxis);
    plot_->yAxis->setScaleType(logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logY) plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    auto* graph = plot_->addGraph();
    graph->setName(QString("mean over %1 frames").arg(in->frames));
    graph->setPen(QPen(seriesColor(0), 1.5));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, seriesColor(0), 6));
    graph->setData(x, y, true);
    auto* bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    bars->setName("± std over frames");
    bars->setDataPlottable(graph);
    bars->setData(err);
    plot_->rescaleAxes();
    const QCPRange xr = plot_->xAxis->range();
    plot_->xAxis->setRange(xr.lower - 0.05 * xr.size() - 1e-9, xr.upper + 0.05 * xr.size() + 1e-9);
    const QCPRange yr = plot_->yAxis->range();
    if (logY)
        plot_->yAxis->setRange(yr.lower / 1.2, yr.upper * 1.2);
    else
        plot_->yAxis->setRange(yr.lower - 0.05 * yr.size() - 1e-9,
                               yr.upper + 0.05 * yr.size() + 1e-9);
    plot_->replot();
}

std::optional<xpcs::BinIntensity> inputIntensity(const xpcs::XpcsInput& input) {
    if (input.frames) return xpcs::binIntensity(*input.frames, input.labels);
    if (input.blocks) return xpcs::binIntensity(*input.blocks, input.labels);
    return std::nullopt;
}

std::vector<ResultTab> intensityTabs(std::shared_ptr<const XpcsPresenter> presenter,
                                     XpcsG2View* g2View) {
    if (!presenter->intensity()) return {};
    auto* time = new XpcsIntensityView(presenter);
    if (g2View) {
        time->setBins(g2View->selectedBins());
        QObject::connect(g2View, &XpcsG2View::selectionChanged, time,
                         [time, g2View] { time->setBins(g2View->selectedBins()); });
    }
    auto* iq = new XpcsIqView(presenter);
    return {
        {"xpcs", "I(t)", time, time->plot(), {}, [presenter] { return presenter->intensityCsv(); }},
        {"xpcs", "I(q)", iq, iq->plot(), {}, [presenter] { return presenter->iqCsv(); }}};
}

} // namespace clscope::ui
