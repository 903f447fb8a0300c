#include "ui/mask/mask_draw_tool.hpp"

#include "ui/image/image_view.hpp"
#include "ui/mask/mask_presenter.hpp"

#include <QKeyEvent>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

const QString outlineLayer = "overlay";

QPen outlinePen(mask::EditMode mode, bool selected) {
    // Orange (mask) and green (unmask) stand out on the magenta of masked pixels.
    QPen pen(mode == mask::EditMode::Unmask ? QColor(60, 220, 110) : QColor(255, 170, 0));
    pen.setWidthF(selected ? 3.0 : 1.5);
    pen.setStyle(selected ? Qt::SolidLine : Qt::DashLine);
    return pen;
}

// Corners of a shape's box in plot coordinates: rectangle corners, ellipse bounding box.
void setBox(QCPAbstractItem* item, mask::Point a, mask::Point b) {
    item->positions()[0]->setCoords(a.x, a.y);
    item->positions()[1]->setCoords(b.x, b.y);
}

// Closed outline of an ellipse (any angle), polygon or brush path as curve points.
std::vector<mask::Point> outlinePoints(const mask::MaskShape& shape) {
    if (const auto* e = std::get_if<mask::EllipseShape>(&shape)) {
        std::vector<mask::Point> points;
        const double a = e->angle * M_PI / 180;
        for (int k = 0; k <= 72; ++k) {
            const double t = 2 * M_PI * k / 72, u = e->radiusX * std::cos(t),
                         v = e->radiusY * std::sin(t);
            points.push_back({e->center.x + u * std::cos(a) - v * std::sin(a),
                              e->center.y + u * std::sin(a) + v * std::cos(a)});
        }
        return points;
    }
    if (const auto* p = std::get_if<mask::PolygonShape>(&shape)) {
        std::vector<mask::Point> points = p->vertices;
        if (!points.empty()) points.push_back(points.front());
        return points;
    }
    if (const auto* s = std::get_if<mask::BrushStroke>(&shape)) return s->dabs;
    return {};
}

void setCurve(QCPCurve* curve, const std::vector<mask::Point>& points) {
    QVector<double> xs, ys;
    for (const mask::Point& p : points) {
        xs << p.x;
        ys << p.y;
    }
    curve->setData(xs, ys);
}

} // namespace

MaskDrawTool::MaskDrawTool(ImageView& view, MaskEditorPresenter& editor, QObject* parent)
    : QObject(parent), view_(view), plot_(view.plot()), editor_(editor) {
    connect(plot_, &QCustomPlot::mousePress, this, &MaskDrawTool::onPress);
    connect(plot_, &QCustomPlot::mouseMove, this, &MaskDrawTool::onMove);
    connect(plot_, &QCustomPlot::mouseRelease, this, &MaskDrawTool::onRelease);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, &MaskDrawTool::onDoubleClick);
    connect(&editor_, &MaskEditorPresenter::shapesChanged, this, &MaskDrawTool::drawShapes);
    plot_->installEventFilter(this);
}

MaskDrawTool::~MaskDrawTool() = default;

void MaskDrawTool::setTool(MaskTool tool) {
    if (tool == tool_) return;
    cancel();
    tool_ = tool;
    view_.setDrawingActive(tool != MaskTool::None);
    plot_->setCursor(tool == MaskTool::None ? Qt::ArrowCursor : Qt::CrossCursor);
    emit toolChanged(tool);
}

void MaskDrawTool::setSelectedShape(int index) {
    selectedShape_ = index;
    drawShapes();
}

mask::Point MaskDrawTool::toImage(QPointF position) const {
    return {plot_->xAxis->pixelToCoord(position.x()), plot_->yAxis->pixelToCoord(position.y())};
}

void MaskDrawTool::cancel() {
    if (dragging_ && tool_ == MaskTool::Brush) editor_.endStroke();
    dragging_ = false;
    polygon_.clear();
    clearPreview();
    replotOverlay();
}

bool MaskDrawTool::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape &&
        (dragging_ || !polygon_.empty())) {
        cancel();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

void MaskDrawTool::onPress(QMouseEvent* event) {
    if (tool_ == MaskTool::None) return;
    if (event->button() == Qt::RightButton) return cancel();
    if (event->button() != Qt::LeftButton) return;
    const mask::Point p = toImage(event->position());
    if (tool_ == MaskTool::Polygon) {
        polygon_.push_back(p);
    } else {
        dragging_ = true;
        dragStart_ = p;
        if (tool_ == MaskTool::Brush) {
            editor_.beginStroke(brushRadius_);
            editor_.addDab(p);
        }
    }
    updatePreview(p);
}

void MaskDrawTool::onMove(QMouseEvent* event) {
    if (tool_ == MaskTool::None) return;
    const mask::Point p = toImage(event->position());
    if (dragging_ && tool_ == MaskTool::Brush) editor_.addDab(p);
    updatePreview(p);
}

void MaskDrawTool::onRelease(QMouseEvent* event) {
    if (!dragging_ || event->button() != Qt::LeftButton) return;
    dragging_ = false;
    const mask::Point a = dragStart_, b = toImage(event->position());
    clearPreview();
    const bool tiny = std::abs(b.x - a.x) < 0.5 || std::abs(b.y - a.y) < 0.5;
    if (tool_ == MaskTool::Brush)
        editor_.endStroke();
    else if (tool_ == MaskTool::Rectangle && !tiny)
        editor_.addShape(mask::RectShape{a, b});
    else if (tool_ == MaskTool::Ellipse && !tiny)
        editor_.addShape(mask::EllipseShape{{(a.x + b.x) / 2, (a.y + b.y) / 2},
                                            std::abs(b.x - a.x) / 2,
                                            std::abs(b.y - a.y) / 2,
                                            0.0});
    replotOverlay();
}

void MaskDrawTool::onDoubleClick(QMouseEvent* event) {
    if (tool_ == MaskTool::Polygon && event->button() == Qt::LeftButton) finishPolygon();
}

// The press of the first click already added the closing vertex.
void MaskDrawTool::finishPolygon() {
    std::vector<mask::Point> vertices = std::move(polygon_);
    polygon_.clear();
    clearPreview();
    if (vertices.size() >= 3) editor_.addShape(mask::PolygonShape{vertices});
    replotOverlay();
}

// The outline under construction: rectangle or ellipse being dragged, polygon so far plus the
// cursor, or the brush footprint at the cursor.
void MaskDrawTool::updatePreview(mask::Point cursor) {
    clearPreview();
    const QPen pen = outlinePen(editor_.editMode(), true);
    if (tool_ == MaskTool::Polygon && !polygon_.empty()) {
        previewCurve_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
        previewCurve_->setLayer(outlineLayer);
        previewCurve_->setPen(pen);
        std::vector<mask::Point> points = polygon_;
        points.push_back(cursor);
        setCurve(previewCurve_, points);
    } else if ((tool_ == MaskTool::Rectangle || tool_ == MaskTool::Ellipse) && dragging_) {
        if (tool_ == MaskTool::Rectangle)
            previewItem_ = new QCPItemRect(plot_);
        else
            previewItem_ = new QCPItemEllipse(plot_);
        previewItem_->setLayer(outlineLayer);
        setBox(previewItem_, dragStart_, cursor);
        if (auto* r = qobject_cast<QCPItemRect*>(previewItem_)) r->setPen(pen);
        if (auto* e = qobject_cast<QCPItemEllipse*>(previewItem_)) e->setPen(pen);
    } else if (tool_ == MaskTool::Brush) {
        auto* disc = new QCPItemEllipse(plot_);
        disc->setLayer(outlineLayer);
        disc->setPen(pen);
        setBox(disc, {cursor.x - brushRadius_, cursor.y - brushRadius_},
               {cursor.x + brushRadius_, cursor.y + brushRadius_});
        previewItem_ = disc;
    }
    replotOverlay();
}

void MaskDrawTool::clearPreview() {
    if (previewItem_) plot_->removeItem(previewItem_);
    if (previewCurve_) plot_->removePlottable(previewCurve_);
    previewItem_ = nullptr;
    previewCurve_ = nullptr;
}

// Outlines of the pending shapes, the selected one solid and thicker.
void MaskDrawTool::drawShapes() {
    clearShapeItems();
    const auto& shapes = editor_.shapes();
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        const QPen pen = outlinePen(shapes[k].mode, static_cast<int>(k) == selectedShape_);
        if (const auto* r = std::get_if<mask::RectShape>(&shapes[k].shape)) {
            auto* item = new QCPItemRect(plot_);
            item->setLayer(outlineLayer);
            item->setPen(pen);
            setBox(item, r->corner0, r->corner1);
            shapeItems_.push_back(item);
            continue;
        }
        auto* curve = new QCPCurve(plot_->xAxis, plot_->yAxis);
        curve->setLayer(outlineLayer);
        curve->setPen(pen);
        setCurve(curve, outlinePoints(shapes[k].shape));
        shapeCurves_.push_back(curve);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void MaskDrawTool::clearShapeItems() {
    for (QCPAbstractItem* item : shapeItems_)
        plot_->removeItem(item);
    for (QCPCurve* curve : shapeCurves_)
        plot_->removePlottable(curve);
    shapeItems_.clear();
    shapeCurves_.clear();
}

void MaskDrawTool::replotOverlay() {
    if (QCPLayer* layer = plot_->layer(outlineLayer))
        layer->replot();
    else
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace clscope::ui
