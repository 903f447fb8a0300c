#include "ui/data/occupancy_plot.hpp"

#include "ui/image/frame_source.hpp"

#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>
#include <algorithm>
#include <numeric>
#include <qcustomplot.h>

namespace clscope::ui {

std::vector<double> occupancyPercent(const std::vector<std::uint64_t>& entriesPerFrame,
                                     std::size_t pixels) {
    std::vector<double> out(entriesPerFrame.size(), 0.0);
    if (pixels == 0) return out;
    for (std::size_t t = 0; t < out.size(); ++t)
        out[t] = 100.0 * static_cast<double>(entriesPerFrame[t]) / static_cast<double>(pixels);
    return out;
}

OccupancyPlot::OccupancyPlot(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    caption_ = new QLabel(this);
    caption_->setToolTip("Each frame's stored entries over its pixels (docs/SPARSE.md)");
    plot_ = new QCustomPlot(this);
    // The frame axis and its label stay on screen in the Data dock of a 1280×800 window.
    plot_->setMinimumHeight(130);
    plot_->addGraph();
    plot_->graph(0)->setName("occupancy");
    plot_->graph(0)->setPen(QPen(QColor(31, 119, 180), 1.2));
    plot_->xAxis->setLabel("frame");
    plot_->yAxis->setLabel("occupancy (%)");
    plot_->setToolTip("Stored entries of each frame over its pixels");
    layout->addWidget(caption_);
    layout->addWidget(plot_, 1);
    hide();
}

void OccupancyPlot::setSource(const FrameSource* source) {
    const auto entries = source ? source->entriesPerFrame() : std::nullopt;
    if (!entries || entries->empty()) {
        plot_->graph(0)->data()->clear();
        hide();
        return;
    }
    const std::vector<double> percent =
        occupancyPercent(*entries, source->height() * source->width());
    std::vector<double> frame(percent.size());
    std::iota(frame.begin(), frame.end(), 0.0);
    plot_->graph(0)->setData(QVector<double>(frame.begin(), frame.end()),
                             QVector<double>(percent.begin(), percent.end()), true);
    const double total = std::accumulate(entries->begin(), entries->end(), 0.0);
    const double mean =
        100.0 * total / (double(percent.size()) * double(source->height() * source->width()));
    caption_->setText(QString("Occupancy: %1 entries, mean %2 %")
                          .arg(QLocale().toString(total, 'f', 0))
                          .arg(mean, 0, 'g', 3));
    plot_->xAxis->setRange(0, std::max(1.0, double(percent.size() - 1)));
    const double top = *std::max_element(percent.begin(), percent.end());
    plot_->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
    plot_->replot();
    show();
}

} // namespace clscope::ui
