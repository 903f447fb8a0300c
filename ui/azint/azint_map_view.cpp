#include "ui/azint/azint_map_view.hpp"

#include "ui/azint/azint_plot_frame.hpp"

#include "ui/results/color_map_plot.hpp"
#include "ui/results/log_axis.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

namespace clscope::ui {

AzintMapView::AzintMapView(const QString& title, const QString& xLabel, const QString& yLabel,
                           std::size_t frames, QWidget* parent)
    : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    if (frames > 1) {
        frame_ = new QSpinBox(this);
        frame_->setRange(0, int(frames - 1));
        frame_->setToolTip("The frame whose map is shown");
        controls->addWidget(new QLabel("Frame", this));
        controls->addWidget(frame_);
        connect(frame_, &QSpinBox::valueChanged, this,
                [this](int f) { emit frameChanged(std::size_t(f)); });
    }
    log_ = new QCheckBox("log colour scale", this);
    controls->addWidget(log_);
    plot_ = controlsTitleAndPlot(*layout, controls, title, this);
    map_ = addColorMapWithBar(*plot_, "intensity");
    scale_ = map_->colorScale();
    plot_->xAxis->setLabel(xLabel);
    plot_->yAxis->setLabel(yLabel);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    layout->addWidget(plot_, 1);
    connect(log_, &QCheckBox::toggled, this, [this] { applyScale(); });
}

std::size_t AzintMapView::frame() const {
    return frame_ ? std::size_t(frame_->value()) : 0;
}

void AzintMapView::setMap(const AzintMap& map, QCPRange x, QCPRange y) {
    map_->data()->setSize(int(map.cols), int(map.rows));
    map_->data()->setRange(x, y);
    for (std::size_t r = 0; r < map.rows; ++r)
        for (std::size_t c = 0; c < map.cols; ++c)
            map_->data()->setCell(int(c), int(r), map.values[r * map.cols + c]);
    applyScale();
    plot_->rescaleAxes();
    plot_->replot();
}

// The data range over the finite (and, on a log scale, positive) cells.
void AzintMapView::applyScale() {
    const bool log = log_->isChecked();
    QCPColorMapData* data = map_->data();
    double lo = INFINITY, hi = -INFINITY;
    for (int c = 0; c < data->keySize(); ++c)
        for (int r = 0; r < data->valueSize(); ++r) {
            const double v = data->cell(c, r);
            if (!std::isfinite(v) || (log && v <= 0)) continue;
            lo = std::min(lo, v), hi = std::max(hi, v);
        }
    if (!(lo <= hi)) lo = log ? 1 : 0, hi = lo + 1;
    if (hi == lo) hi = lo + (log ? lo : 1);
    map_->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    setLogAxis(*scale_->axis(), log);
    map_->setDataRange(QCPRange(lo, hi));
    plot_->replot();
}

} // namespace clscope::ui
