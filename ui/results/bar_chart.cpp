#include "ui/results/bar_chart.hpp"

#include "ui/image/colormaps.hpp"
#include "ui/results/plot_legend.hpp"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

bool hasBar(double value) {
    return std::isfinite(value) && value > 0;
}

// One QCPBars per series (bars along x, categories on y), coloured apart, named.
std::vector<QCPBars*> makeBars(QCustomPlot& plot, const std::vector<BarSeries>& series) {
    plot.clearPlottables();
    placeLegendBelow(plot);
    std::vector<QCPBars*> bars;
    const QVector<QColor> palette = distinctPalette(static_cast<int>(series.size()));
    for (std::size_t s = 0; s < series.size(); ++s) {
        auto* b = new QCPBars(plot.yAxis, plot.xAxis);
        const QColor color = palette[static_cast<int>(s)];
        b->setBrush(color);
        b->setPen(color.darker(130));
        b->setName(series[s].name);
        bars.push_back(b);
    }
    return bars;
}

// The category rows as y ticks (first on top), x from 0 to `most`, the empty series dropped
// from the plot and the legend, the legend's columns fitted; replots.
void finishBars(QCustomPlot& plot, const QStringList& categories, std::vector<QCPBars*>& bars,
                double most, const QString& valueLabel) {
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int c = 0; c < categories.size(); ++c)
        ticker->addTick(static_cast<double>(c), categories[c]);
    for (QCPBars* b : bars)
        if (b->data()->isEmpty()) plot.removePlottable(b);
    plot.yAxis->setTicker(ticker);
    plot.yAxis->setRangeReversed(true);
    plot.yAxis->setRange(-0.6, std::max<double>(categories.size(), 1) - 0.4);
    plot.yAxis->setTickLabelRotation(0);
    plot.yAxis->grid()->setVisible(false);
    plot.yAxis->setLabel(QString());
    plot.xAxis->setLabel(valueLabel);
    // About one tick label per 80 px, so a narrow docked chart's labels stay apart.
    auto valueTicker = QSharedPointer<QCPAxisTicker>(new QCPAxisTicker);
    valueTicker->setTickCount(std::clamp(plot.axisRect()->width() / 80, 2, 5));
    plot.xAxis->setTicker(valueTicker);
    plot.xAxis->setTickLabelRotation(0);
    plot.xAxis->setRange(0, most > 0 ? most * 1.08 : 1.0);
    fitLegendColumns(plot);
    plot.legend->setVisible(plot.plottableCount() > 0);
    plot.replot();
}

} // namespace

void drawGroupedBars(QCustomPlot& plot, const QStringList& categories,
                     const std::vector<BarSeries>& series, const QString& valueLabel) {
    std::vector<QCPBars*> bars = makeBars(plot, series);
    // The series each category has; one slot width for all, so bars match in thickness.
    std::vector<std::vector<std::size_t>> present(static_cast<std::size_t>(categories.size()));
    std::size_t widest = 1;
    for (std::size_t c = 0; c < present.size(); ++c) {
        for (std::size_t s = 0; s < series.size(); ++s)
            if (c < series[s].values.size() && hasBar(series[s].values[c])) present[c].push_back(s);
        widest = std::max(widest, present[c].size());
    }
    const double slot = 0.8 / static_cast<double>(widest);
    double most = 0;
    for (std::size_t c = 0; c < present.size(); ++c) {
        const double first =
            static_cast<double>(c) - 0.5 * slot * static_cast<double>(present[c].size());
        for (std::size_t k = 0; k < present[c].size(); ++k) {
            const double value = series[present[c][k]].values[c];
            bars[present[c][k]]->addData(first + slot * (static_cast<double>(k) + 0.5), value);
            most = std::max(most, value);
        }
    }
    for (QCPBars* b : bars)
        b->setWidth(slot * 0.9);
    finishBars(plot, categories, bars, most, valueLabel);
}

void drawStackedBars(QCustomPlot& plot, const QStringList& categories,
                     const std::vector<BarSeries>& series, const QString& valueLabel) {
    std::vector<QCPBars*> bars = makeBars(plot, series);
    std::vector<double> totals(static_cast<std::size_t>(categories.size()), 0.0);
    for (std::size_t s = 0; s < series.size(); ++s) {
        for (std::size_t c = 0; c < totals.size() && c < series[s].values.size(); ++c)
            if (hasBar(series[s].values[c])) {
                bars[s]->addData(static_cast<double>(c), series[s].values[c]);
                totals[c] += series[s].values[c];
            }
        bars[s]->setWidth(0.7);
    }
    // Each non-empty series on top of the previous non-empty one (QCPBars stacks by key).
    QCPBars* below = nullptr;
    for (QCPBars* b : bars) {
        if (b->data()->isEmpty()) continue;
        if (below) b->moveAbove(below);
        below = b;
    }
    const double most = totals.empty() ? 0 : *std::max_element(totals.begin(), totals.end());
    finishBars(plot, categories, bars, most, valueLabel);
}

} // namespace clscope::ui
