#include "ui/spots/spots_difference_view.hpp"

#include "ui/image/colormaps.hpp"
#include "ui/image/overlay_layer.hpp"
#include "ui/spots/spots_presenter.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace clscope::ui {

SpotsDifferenceView::SpotsDifferenceView(spots::Result a, std::string labelA, spots::Result b,
                                         std::string labelB, QWidget* parent)
    : QWidget(parent), a_(std::move(a)), b_(std::move(b)), labelA_(std::move(labelA)),
      labelB_(std::move(labelB)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(220);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->xAxis->setLabel("x (pixel)");
    plot_->yAxis->setLabel("y (pixel)");
    plot_->yAxis->setRangeReversed(true);
    plot_->axisRect()->setupFullAxesBox(true);
    frame_ = new QSpinBox(this);
    frame_->setToolTip("Frame whose disagreeing pixels are shown");
    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel("frame", this));
    row->addWidget(frame_);
    row->addWidget(caption_, 1);
    layout->addWidget(plot_, 1);
    layout->addLayout(row);
    std::size_t first = 0;
    try {
        const SignalDifference d = signalDifference(a_, b_, 0);
        frame_->setRange(0, static_cast<int>(std::max<std::size_t>(d.frames, 1) - 1));
        first = d.firstDifferingFrame.value_or(0);
    } catch (const std::exception&) {
    }
    connect(frame_, &QSpinBox::valueChanged, this, [this](int f) { showFrame(std::size_t(f)); });
    frame_->setValue(static_cast<int>(first));
    showFrame(first);
}

SpotsDifferenceView::~SpotsDifferenceView() {
    layer_.reset(); // before the plot that holds its layer
}

void SpotsDifferenceView::showFrame(std::size_t frame) {
    layer_.reset();
    SignalDifference d;
    try {
        d = signalDifference(a_, b_, frame);
    } catch (const std::exception& e) {
        caption_->setText(e.what());
        plot_->replot();
        return;
    }
    OverlayData data;
    data.name = "signal differs";
    data.width = d.width, data.height = d.height, data.labels = d.labels;
    data.opacity = 1.0;
    data.labelText = [this](std::int32_t label) {
        return QString::fromStdString("signal only in " + (label == 1 ? labelA_ : labelB_));
    };
    layer_ = std::make_unique<OverlayLayer>(plot_, std::move(data), "main");
    const QVector<QColor>& palette = labelPalette();
    caption_->setText(QString("<span style='color:%1'>■</span> only in %2: %3 px &nbsp; "
                              "<span style='color:%4'>■</span> only in %5: %6 px on this frame; "
                              "%7 px differ over all %8 frames")
                          .arg(palette[0].name(), QString::fromStdString(labelA_).toHtmlEscaped())
                          .arg(d.onlyA)
                          .arg(palette[1].name(), QString::fromStdString(labelB_).toHtmlEscaped())
                          .arg(d.onlyB)
                          .arg(d.totalDiffering)
                          .arg(d.frames));
    plot_->xAxis->setRange(0, double(d.width));
    plot_->yAxis->setRange(0, double(d.height));
    plot_->replot();
}

} // namespace clscope::ui
