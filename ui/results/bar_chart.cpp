#include "ui/results/bar_chart.hpp"

#include "ui/image/colormaps.hpp"
#include "ui/results/plot_legend.hpp"

#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

bool hasBar(double value) {
    return std::isfinite(value) && value > 0;
}

} // namespace

void drawGroupedBars(QCustomPlot& plot, const QStringList& categories,
                     const std::vector<BarSeries>& series, const QString& valueLabel) {
    plot.clearPlottables();
    placeLegendBelow(plot);
    // Bars run along x (the value); the categories are rows on y.
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
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
        ticker->addTick(static_cast<double>(c), categories[static_cast<int>(c)]);
    }
    for (QCPBars* b : bars)
        b->setWidth(slot * 0.9);
    for (QCPBars* b : bars)
        if (b->data()->isEmpty()) plot.removePlottable(b);
    plot.yAxis->setTicker(ticker);
    plot.yAxis->setRangeReversed(true);
    plot.yAxis->setRange(-0.6, std::max<double>(categories.size(), 1) - 0.4);
    plot.yAxis->setTickLabelRotation(0);
    plot.yAxis->grid()->setVisible(false);
    plot.yAxis->setLabel(QString());
    plot.xAxis->setLabel(valueLabel);
    plot.xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot.xAxis->setTickLabelRotation(0);
    plot.xAxis->setRange(0, most > 0 ? most * 1.08 : 1.0);
    fitLegendColumns(plot);
    plot.legend->setVisible(plot.plottableCount() > 0);
    plot.replot();
}

} // namespace clscope::ui
