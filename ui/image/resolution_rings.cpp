#include "ui/image/resolution_rings.hpp"

#include "core/mask/rings.hpp"

#include <qcustomplot.h>

namespace clscope::ui {

namespace {
const QColor ringColor(255, 220, 90); // amber: apart from the cyan spot boxes and red overlays
} // namespace

ResolutionRings::ResolutionRings(QCustomPlot* plot) : plot_(plot) {
    QString name = "resolution rings";
    for (int i = 2; plot->layer(name); ++i)
        name = "resolution rings " + QString::number(i);
    plot->addLayer(name, plot->layer("overlay"), QCustomPlot::limBelow);
    layer_ = plot->layer(name);
}

ResolutionRings::~ResolutionRings() {
    if (!plot_) return;
    clear();
    plot_->removeLayer(layer_);
}

void ResolutionRings::clear() {
    for (QCPCurve* curve : curves_)
        plot_->removePlottable(curve);
    for (QCPItemText* label : labels_)
        plot_->removeItem(label);
    curves_.clear(), labels_.clear(), spacings_.clear();
}

void ResolutionRings::setGeometry(std::optional<mask::Geometry> geometry, std::size_t height,
                                  std::size_t width) {
    geometry_ = geometry, height_ = height, width_ = width;
    rebuild();
}

// Rings are computed only while they can be seen.
void ResolutionRings::rebuild() {
    if (!plot_) return;
    clear();
    if (geometry_ && height_ && width_ && shown_ && ownerActive_) {
        spacings_ = mask::ringSpacings(*geometry_, height_, width_);
        for (double d : spacings_) {
            const auto points = mask::resolutionRing(*geometry_, d);
            if (points.empty()) continue;
            auto* curve = new QCPCurve(plot_->xAxis, plot_->yAxis);
            curve->setLayer(layer_);
            curve->removeFromLegend();
            curve->setSelectable(QCP::stNone);
            curve->setPen(QPen(ringColor, 1.5, Qt::DashLine));
            QVector<double> xs, ys;
            for (const auto& [x, y] : points)
                xs << x, ys << y;
            xs << xs.front(), ys << ys.front(); // closed
            curve->setData(xs, ys);
            curves_.push_back(curve);
            // The label where the ring crosses the upward vertical through the beam centre,
            // else at its first point (angle 0: right of the centre).
            auto* label = new QCPItemText(plot_);
            label->setLayer(layer_);
            label->setText(QString("%1 Å").arg(d, 0, 'g', 3));
            label->setColor(ringColor);
            label->setFont(QFont(plot_->font().family(), 9, QFont::Bold));
            label->position->setCoords(points[points.size() * 3 / 4].first,
                                       points[points.size() * 3 / 4].second);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            labels_.push_back(label);
        }
    }
    applyVisibility();
}

void ResolutionRings::setShown(bool shown) {
    shown_ = shown;
    rebuild();
}

void ResolutionRings::setOwnerActive(bool active) {
    ownerActive_ = active;
    rebuild();
}

bool ResolutionRings::isVisible() const {
    return !curves_.empty() && shown_ && ownerActive_;
}

void ResolutionRings::applyVisibility() {
    if (plot_) layer_->replot();
}

} // namespace clscope::ui
