// The one overlay type of the image view: a label image drawn as a second QCPColorMap on its
// own buffered layer above the frame (masks, q bins, signal pixels, cluster maps).
#pragma once
#include <QColor>
#include <QString>
#include <qcustomplot.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace clscope::ui {

// What an algorithm hands the image view. Label 0 draws nothing.
struct OverlayData {
    QString name; // shown in the overlay menu and the cursor readout, e.g. "q bins"
    // The panel the overlay belongs to (ImageView::setOwnerActive shows and hides all of its
    // overlays at once); empty: the workbench's own, always shown.
    QString owner;
    std::size_t width = 0, height = 0;
    std::vector<std::int32_t> labels; // (H,W) row-major
    // Categorical: label L takes palette colour (L-1) mod 10; Solid: every non-zero label in color.
    enum class Style { Categorical, Solid } style = Style::Categorical;
    QColor color = QColor(255, 64, 64);
    double opacity = 0.45;
    // Contours: boundary pixels between two non-zero labels drawn again, in contourColor, on
    // the same layer (one pixel wide: the pixel with the larger label of each pair).
    bool contours = false;
    QColor contourColor = QColor(255, 255, 255, 220);
    // Text for a label under the cursor; default "<name> L".
    std::function<QString(std::int32_t)> labelText;
};

class OverlayLayer {
  public:
    // Adds a colour map on a new layer above `below` (a layer name of the plot).
    OverlayLayer(QCustomPlot* plot, OverlayData data, const QString& below);
    ~OverlayLayer();
    OverlayLayer(const OverlayLayer&) = delete;
    OverlayLayer& operator=(const OverlayLayer&) = delete;

    const QString& name() const { return data_.name; }
    const QString& owner() const { return data_.owner; }
    // Drawn when the user shows it (the overlay menu) and its owner is active.
    void setVisible(bool visible);
    void setOwnerActive(bool active);
    bool isVisible() const;
    bool isUserVisible() const { return userVisible_; }
    // The label at pixel (x, y), 0 outside or where there is none.
    std::int32_t labelAt(std::size_t x, std::size_t y) const;
    // "<name> 3" or the overlay's own text; empty when no label is there.
    QString describeAt(std::size_t x, std::size_t y) const;
    QCPColorMap* colorMap() const { return map_; }
    // The contour map (nullptr unless data.contours).
    QCPColorMap* contourMap() const { return contourMap_; }

  private:
    QCPColorMap* addMap();
    void addContours();
    void applyVisibility();
    QCustomPlot* plot_;
    OverlayData data_;
    QCPLayer* layer_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorMap* contourMap_ = nullptr;
    bool userVisible_ = true, ownerActive_ = true;
};

// Whether pixel i of a (height, width) label image lies on a bin boundary: a 4-neighbour has
// another non-zero label smaller than its own.
bool isContourPixel(const std::vector<std::int32_t>& labels, std::size_t width, std::size_t height,
                    std::size_t i);

} // namespace clscope::ui
