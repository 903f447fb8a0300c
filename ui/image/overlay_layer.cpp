#include "ui/image/overlay_layer.hpp"

#include "ui/image/colormaps.hpp"

#include <cmath>
#include <limits>

namespace clscope::ui {

namespace {

// Gradient over [0, n-1] with one flat colour per palette slot; NaN (label 0) is transparent.
QCPColorGradient overlayGradient(const OverlayData& data) {
    QVector<QColor> colors =
        data.style == OverlayData::Style::Solid ? QVector<QColor>{data.color} : labelPalette();
    QMap<double, QColor> stops;
    const int n = static_cast<int>(colors.size());
    for (int i = 0; i < n; ++i) {
        QColor c = colors[i];
        c.setAlphaF(static_cast<float>(data.opacity));
        stops.insert(n == 1 ? 0.0 : static_cast<double>(i) / (n - 1), c);
        if (n == 1) stops.insert(1.0, c);
    }
    QCPColorGradient gradient;
    gradient.setColorStops(stops);
    gradient.setLevelCount(std::max(2, n));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

} // namespace

OverlayLayer::OverlayLayer(QCustomPlot* plot, OverlayData data, const QString& below)
    : plot_(plot), data_(std::move(data)) {
    // A unique layer name per overlay; reusing a name would put two maps on one layer.
    QString layerName = "overlay " + data_.name;
    for (int i = 2; plot_->layer(layerName); ++i)
        layerName = "overlay " + data_.name + " " + QString::number(i);
    plot_->addLayer(layerName, plot_->layer(below), QCustomPlot::limAbove);
    layer_ = plot_->layer(layerName);
    layer_->setMode(QCPLayer::lmBuffered);
    map_ = addMap();
    const int w = static_cast<int>(data_.width), h = static_cast<int>(data_.height);
    const int slotCount =
        data_.style == OverlayData::Style::Solid ? 1 : static_cast<int>(labelPalette().size());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::int32_t label = data_.labels[static_cast<std::size_t>(y) * data_.width + x];
            const double slot = label == 0 ? std::numeric_limits<double>::quiet_NaN()
                                           : static_cast<double>((std::abs(label) - 1) % slotCount);
            map_->data()->setCell(x, y, slot);
        }
    map_->setGradient(overlayGradient(data_));
    map_->setDataRange(QCPRange(0, std::max(1, slotCount - 1)));
    if (data_.contours) addContours();
}

// A colour map over the image's pixels on this overlay's layer.
QCPColorMap* OverlayLayer::addMap() {
    auto* map = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map->setLayer(layer_);
    map->setInterpolate(false);
    map->setTightBoundary(false);
    const int w = static_cast<int>(data_.width), h = static_cast<int>(data_.height);
    map->data()->setSize(w, h);
    map->data()->setRange(QCPRange(0.5, w - 0.5), QCPRange(0.5, h - 0.5));
    return map;
}

void OverlayLayer::addContours() {
    contourMap_ = addMap();
    const double none = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t y = 0; y < data_.height; ++y)
        for (std::size_t x = 0; x < data_.width; ++x) {
            const bool edge =
                isContourPixel(data_.labels, data_.width, data_.height, y * data_.width + x);
            contourMap_->data()->setCell(static_cast<int>(x), static_cast<int>(y),
                                         edge ? 0.0 : none);
        }
    QCPColorGradient gradient;
    gradient.setColorStops({{0.0, data_.contourColor}, {1.0, data_.contourColor}});
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    contourMap_->setGradient(gradient);
    contourMap_->setDataRange(QCPRange(0, 1));
}

bool isContourPixel(const std::vector<std::int32_t>& labels, std::size_t width, std::size_t height,
                    std::size_t i) {
    const std::int32_t label = labels[i];
    if (label == 0) return false;
    const std::size_t x = i % width, y = i / width;
    auto differs = [&](std::size_t j) { return labels[j] != 0 && labels[j] < label; };
    return (x > 0 && differs(i - 1)) || (x + 1 < width && differs(i + 1)) ||
           (y > 0 && differs(i - width)) || (y + 1 < height && differs(i + width));
}

OverlayLayer::~OverlayLayer() {
    if (contourMap_) plot_->removePlottable(contourMap_);
    plot_->removePlottable(map_);
    plot_->removeLayer(layer_);
}

void OverlayLayer::setVisible(bool visible) {
    userVisible_ = visible;
    applyVisibility();
}

void OverlayLayer::setOwnerActive(bool active) {
    ownerActive_ = active;
    applyVisibility();
}

void OverlayLayer::applyVisibility() {
    const bool visible = userVisible_ && ownerActive_;
    layer_->setVisible(visible);
    map_->setVisible(visible);
    if (contourMap_) contourMap_->setVisible(visible);
}

bool OverlayLayer::isVisible() const {
    return layer_->visible();
}

std::int32_t OverlayLayer::labelAt(std::size_t x, std::size_t y) const {
    if (x >= data_.width || y >= data_.height) return 0;
    return data_.labels[y * data_.width + x];
}

QString OverlayLayer::describeAt(std::size_t x, std::size_t y) const {
    const std::int32_t label = labelAt(x, y);
    if (label == 0 || !isVisible()) return {};
    if (data_.labelText) return data_.labelText(label);
    return data_.name + " " + QString::number(label);
}

} // namespace clscope::ui
