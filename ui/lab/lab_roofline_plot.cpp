#include "ui/lab/lab_roofline_plot.hpp"

#include "ui/image/colormaps.hpp"

#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// The rows' roofline objects that declare operations (a point needs an intensity and a rate).
std::vector<std::pair<QString, nlohmann::json>> drawable(const nlohmann::json& rows) {
    std::vector<std::pair<QString, nlohmann::json>> out;
    for (const nlohmann::json& r : rows) {
        const nlohmann::json f = r.value("roofline", nlohmann::json());
        if (f.is_object() && f.value("operations_per_byte", 0.0) > 0 &&
            f.value("achieved_operations_per_s", 0.0) > 0)
            out.emplace_back(QString::fromStdString(r.value("label", "")), f);
    }
    return out;
}

} // namespace

LabRooflinePlot::LabRooflinePlot(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), note_(new QLabel(this)) {
    setObjectName("LabRoofline");
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    }
    plot_->xAxis->setLabel("operations per byte (declared work)");
    plot_->yAxis->setLabel("Gop/s");
    plot_->legend->setVisible(true);
    plot_->legend->setBrush(QColor(255, 255, 255, 220));
    note_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(note_);
    layout->addWidget(plot_, 1);
    showRows(nlohmann::json::array());
}

void LabRooflinePlot::drawRoof(const nlohmann::json& f, double low, double high) {
    const double bandwidth = f.value("peak_bytes_per_s", 0.0) * 1e-9;
    const double compute = f.value("peak_operations_per_s", 0.0) * 1e-9;
    if (!(bandwidth > 0 && compute > 0)) return;
    auto* roof = plot_->addGraph();
    roof->setName(QString("measured peaks: %1 GB/s, %2 Gop/s")
                      .arg(bandwidth, 0, 'g', 4)
                      .arg(compute, 0, 'g', 4));
    roof->setPen(QPen(Qt::black, 2));
    const double ridge = compute / bandwidth;
    QVector<double> x{low, std::clamp(ridge, low, high), high}, y;
    for (double i : x)
        y << std::min(compute, i * bandwidth);
    roof->setData(x, y);
}

void LabRooflinePlot::showRows(const nlohmann::json& rows) {
    plot_->clearGraphs();
    const auto points = drawable(rows);
    points_ = int(points.size());
    note_->setText(points.empty() ? "No row declares operations: run a variant whose algorithm "
                                    "declares its work (docs/LAB.md, the roofline)."
                                  : "Each row at its declared work's intensity and achieved rate, "
                                    "under the device's peaks as the probes measured them.");
    double low = 1e-2, high = 1e2, bottom = 1e-3, top = 1;
    for (const auto& [label, f] : points) {
        const double i = f.value("operations_per_byte", 0.0);
        low = std::min(low, i / 10), high = std::max(high, i * 10);
        const double rate = f.value("achieved_operations_per_s", 0.0) * 1e-9;
        bottom = std::min(bottom, rate / 10), top = std::max(top, rate * 10);
    }
    if (!points.empty()) {
        drawRoof(points.front().second, low, high);
        top = std::max(top, 10 * points.front().second.value("peak_operations_per_s", 0.0) * 1e-9);
    }
    const QVector<QColor> colours = distinctPalette(std::max(1, points_));
    for (int n = 0; n < points_; ++n) {
        const auto& [label, f] = points[std::size_t(n)];
        auto* g = plot_->addGraph();
        g->setName(label);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colours[n], 8));
        g->setData(QVector<double>{f.value("operations_per_byte", 0.0)},
                   QVector<double>{f.value("achieved_operations_per_s", 0.0) * 1e-9});
    }
    plot_->xAxis->setRange(low, high);
    plot_->yAxis->setRange(bottom, top);
    plot_->replot();
}

} // namespace clscope::ui
