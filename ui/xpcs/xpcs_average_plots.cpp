#include "ui/xpcs/xpcs_average_plots.hpp"

#include "ui/image/colormaps.hpp"
#include "ui/results/plot_legend.hpp"

#include <QFileInfo>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

QCustomPlot* titledPlot(QWidget* parent, const QString& title) {
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumSize(240, 180); // the table beside keeps its room
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(plot, title, QFont(parent->font().family(), 9)));
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    placeLegendBelow(*plot);
    return plot;
}

bool rejected(const AveragePlotData& d, std::size_t run) {
    return d.outcome && d.outcome->rejection(run);
}

// Kept runs in the palette's colours, rejected ones dashed red; the selected run thicker and
// named; one legend entry per kind otherwise.
QPen runPen(const AveragePlotData& d, std::size_t run) {
    const QVector<QColor>& palette = labelPalette();
    QPen pen(rejected(d, run) ? QColor(214, 39, 40)
                              : palette[static_cast<int>(run % std::size_t(palette.size()))]);
    pen.setWidthF(int(run) == d.selected ? 2.5 : 1.0);
    if (rejected(d, run)) pen.setStyle(Qt::DashLine);
    return pen;
}

// The legend: "kept runs", "rejected runs" once each, the selected run by its file name.
void nameRun(QCPGraph* graph, const AveragePlotData& d, std::size_t run, bool& keptNamed,
             bool& rejectedNamed) {
    if (int(run) == d.selected) {
        graph->setName(QString("run %1: %2")
                           .arg(run + 1)
                           .arg(QFileInfo(QString::fromStdString((*d.runs)[run].file)).fileName()));
        return;
    }
    bool& named = rejected(d, run) ? rejectedNamed : keptNamed;
    if (named) {
        graph->removeFromLegend();
        return;
    }
    named = true;
    graph->setName(rejected(d, run) ? "rejected runs" : d.outcome ? "kept runs" : "runs");
}

QVector<double> range(const std::vector<double>& v, std::size_t from, std::size_t count) {
    return QVector<double>(v.begin() + long(from), v.begin() + long(from + count));
}

void addAverage(QCustomPlot& plot, const AveragePlotData& d) {
    if (!d.outcome || !d.outcome->averaged) return;
    const xpcs::Result& r = d.outcome->averaged->result;
    if (d.bin >= r.binCount()) return;
    QVector<double> tau, g2, err;
    for (std::size_t t = 0; t < r.frames; ++t)
        if (r.tau[t] > 0 && std::isfinite(r.g2[d.bin * r.frames + t]))
            tau << r.tau[t], g2 << r.g2[d.bin * r.frames + t], err << r.g2Err[d.bin * r.frames + t];
    auto* graph = plot.addGraph();
    graph->setName(QString("average of %1 runs").arg(d.outcome->kept(d.runs->size())));
    graph->setPen(QPen(Qt::black, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    graph->setData(tau, g2);
    auto* bars = new QCPErrorBars(plot.xAxis, plot.yAxis);
    bars->removeFromLegend();
    bars->setDataPlottable(graph);
    bars->setData(err);
}

} // namespace

QCustomPlot* makeAverageG2Plot(QWidget* parent) {
    QCustomPlot* plot = titledPlot(parent, "g₂ of each run and their average");
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot->xAxis->setNumberFormat("eb");
    plot->xAxis->setNumberPrecision(0);
    plot->yAxis->setLabel("g₂(τ)");
    return plot;
}

QCustomPlot* makeAverageIntensityPlot(QWidget* parent) {
    QCustomPlot* plot = titledPlot(parent, "intensity against time, each run");
    plot->xAxis->setLabel("frame (from the run's first)");
    plot->yAxis->setLabel("⟨I⟩ (counts/pixel/frame)");
    return plot;
}

void plotAverageG2(QCustomPlot& plot, const AveragePlotData& d) {
    plot.clearPlottables();
    bool keptNamed = false, rejectedNamed = false;
    QString unit = "frames";
    for (std::size_t i = 0; d.runs && i < d.runs->size(); ++i) {
        const xpcs::Result& r = (*d.runs)[i].result;
        if (d.bin >= r.binCount()) continue;
        unit = r.tauInSeconds ? "s" : "frames";
        auto* graph = plot.addGraph();
        graph->setPen(runPen(d, i));
        graph->setData(range(r.tau, 1, r.frames - 1),
                       range(r.g2, d.bin * r.frames + 1, r.frames - 1));
        nameRun(graph, d, i, keptNamed, rejectedNamed);
    }
    addAverage(plot, d);
    plot.xAxis->setLabel(QString("lag time τ (%1)").arg(unit));
    plot.rescaleAxes();
    plot.yAxis->scaleRange(1.1);
    fitLegendColumns(plot);
    plot.replot();
}

void plotAverageIntensity(QCustomPlot& plot, const AveragePlotData& d) {
    plot.clearPlottables();
    bool keptNamed = false, rejectedNamed = false;
    for (std::size_t i = 0; d.runs && i < d.runs->size(); ++i) {
        const xpcs::ResultSums& s = (*d.runs)[i].sums;
        if (d.bin >= s.binCount() || s.frames == 0) continue;
        QVector<double> frame(static_cast<int>(s.frames));
        for (std::size_t t = 0; t < s.frames; ++t)
            frame[int(t)] = double(t);
        auto* graph = plot.addGraph();
        graph->setPen(runPen(d, i));
        graph->setData(frame, range(s.intensity, d.bin * s.frames, s.frames));
        nameRun(graph, d, i, keptNamed, rejectedNamed);
    }
    plot.rescaleAxes();
    plot.yAxis->scaleRange(1.15);
    fitLegendColumns(plot);
    plot.replot();
}

} // namespace clscope::ui
