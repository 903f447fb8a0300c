// Drawing mask shapes on the image view with the mouse: while a tool is active the view does
// not pan; press–drag–release draws a rectangle, an ellipse (in the dragged box) or a brush
// stroke, clicks add polygon vertices and a double-click closes the polygon (right-click or
// Esc drops it). Outlines while drawing are QCustomPlot items (QCPItemRect, QCPItemEllipse,
// QCPCurve) on the plot's top "overlay" layer, as are the outlines of the pending shapes.
#pragma once
#include "core/mask/shapes.hpp"

#include <QObject>
#include <QPointF>
#include <vector>

class QCPAbstractItem;
class QCPCurve;
class QCustomPlot;
class QMouseEvent;

namespace clscope::ui {

class ImageView;
class MaskEditorPresenter;

enum class MaskTool { None, Rectangle, Ellipse, Polygon, Brush };

class MaskDrawTool : public QObject {
    Q_OBJECT
  public:
    MaskDrawTool(ImageView& view, MaskEditorPresenter& editor, QObject* parent = nullptr);
    ~MaskDrawTool() override;

    void setTool(MaskTool tool);
    MaskTool tool() const { return tool_; }
    void setBrushRadius(double radius) { brushRadius_ = radius; }
    double brushRadius() const { return brushRadius_; }
    // The pending shape drawn highlighted (-1: none).
    void setSelectedShape(int index);
    void cancel(); // drops a polygon or a drag in progress

    // Plot pixel coordinates (x along columns, y along rows) of a widget position.
    mask::Point toImage(QPointF position) const;

  signals:
    void toolChanged(clscope::ui::MaskTool tool);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease(QMouseEvent* event);
    void onDoubleClick(QMouseEvent* event);
    void updatePreview(mask::Point cursor);
    void finishPolygon();
    void clearPreview();
    void drawShapes();
    void clearShapeItems();
    void replotOverlay();

    ImageView& view_;
    QCustomPlot* plot_;
    MaskEditorPresenter& editor_;
    MaskTool tool_ = MaskTool::None;
    double brushRadius_ = 3.0;
    int selectedShape_ = -1;
    bool dragging_ = false;
    mask::Point dragStart_;
    std::vector<mask::Point> polygon_;
    QCPAbstractItem* previewItem_ = nullptr;
    QCPCurve* previewCurve_ = nullptr;
    std::vector<QCPAbstractItem*> shapeItems_;
    std::vector<QCPCurve*> shapeCurves_;
};

} // namespace clscope::ui
