#include "ui/spots/spots_markers.hpp"

#include <algorithm>
#include <numeric>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {
const QColor boxColor(0, 230, 255);        // cyan: apart from the red signal overlay
const QColor selectedColor(255, 255, 255); // white: apart from viridis' yellow
} // namespace

SpotMarkers::SpotMarkers(QCustomPlot* plot) : plot_(plot) {
    // Below QCustomPlot's top "overlay" layer, above the image overlays (inserted above "main").
    QString name = "spot markers";
    for (int i = 2; plot->layer(name); ++i)
        name = "spot markers " + QString::number(i);
    plot->addLayer(name, plot->layer("overlay"), QCustomPlot::limBelow);
    layer_ = plot->layer(name);
    centroids_ = plot->addGraph(plot->xAxis, plot->yAxis);
    centroids_->setLayer(layer_);
    centroids_->setLineStyle(QCPGraph::lsNone);
    centroids_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, boxColor, 7));
    centroids_->setName("spot centroids");
    centroids_->removeFromLegend();
}

SpotMarkers::~SpotMarkers() {
    if (!plot_) return;
    clearBoxes();
    plot_->removeGraph(centroids_);
    plot_->removeLayer(layer_);
}

void SpotMarkers::clearBoxes() {
    for (QCPItemRect* box : boxes_)
        plot_->removeItem(box);
    boxes_.clear();
}

void SpotMarkers::setSpots(const std::vector<spots::Spot>& spots,
                           std::optional<std::size_t> selected) {
    if (!plot_) return;
    clearBoxes();
    std::vector<std::size_t> order(spots.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    if (order.size() > maxBoxes) {
        std::partial_sort(order.begin(), order.begin() + maxBoxes, order.end(),
                          [&](auto a, auto b) { return spots[a].intensity > spots[b].intensity; });
        order.resize(maxBoxes);
    }
    QVector<double> xs, ys;
    for (std::size_t i : order) {
        const spots::Spot& s = spots[i];
        auto* box = new QCPItemRect(plot_);
        box->setLayer(layer_);
        box->topLeft->setCoords(s.x0, s.y0);
        box->bottomRight->setCoords(s.x1, s.y1);
        const bool chosen = selected && *selected == i;
        box->setPen(QPen(chosen ? selectedColor : boxColor, chosen ? 3.0 : 2.0));
        box->setSelectable(false);
        box->setVisible(visible_);
        boxes_.push_back(box);
        xs.push_back(s.x), ys.push_back(s.y);
    }
    centroids_->setData(xs, ys);
    layer_->replot();
}

void SpotMarkers::setVisible(bool visible) {
    visible_ = visible;
    if (!plot_) return;
    for (QCPItemRect* box : boxes_)
        box->setVisible(visible);
    centroids_->setVisible(visible);
}

} // namespace clscope::ui
