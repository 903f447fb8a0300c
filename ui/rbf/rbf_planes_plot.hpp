// The three planes xy, xz, yz side by side (or one above the other) in one QCustomPlot: an n x n
// colour map each (no interpolation, cell centres on the grid points 0..1), a title and axis labels
// on each plane, ONE colour scale shared by the three maps with its label (linear, or log with a
// log ticker), optional source markers (area ∝ |weight|) and a line showing where a profile runs.
// Used by the panel's planes view and by the Compare dock's |f − f_ref| view.
#pragma once
#include "ui/rbf/rbf_presenter.hpp"

#include <array>
#include <qcustomplot.h>
#include <string>
#include <vector>

namespace clscope::ui {

// What the three colour maps show.
struct RbfPlanesImage {
    std::size_t n = 0;
    std::array<std::vector<double>, 3> planes; // index a·n + b (a horizontal, b vertical)
    RbfRange range;
    bool log = false;
    bool cyclic = false; // phase: a cyclic colour map
    std::string label;   // the colour bar's
};

class RbfPlanesPlot : public QCustomPlot {
    Q_OBJECT
  public:
    explicit RbfPlanesPlot(QWidget* parent = nullptr);
    void setImage(const RbfPlanesImage& image);
    // Sources projected onto each plane (markers[p]) as open rings in five size classes of
    // |c| / largest, ring area ∝ |c| (diameter 4.9 .. 11 px).
    void setMarkers(const std::array<std::vector<RbfMarker>, 3>& markers, double largest);
    // A dashed line on plane p at `coordinate` of its vertical axis (alongHorizontal) or of its
    // horizontal axis; plane < 0 hides it.
    void setProfileLine(int plane, bool alongHorizontal, double coordinate);

    QCPColorMap* map(std::size_t plane) const { return maps_[plane]; }
    QCPAxisRect* rect(std::size_t plane) const { return rects_[plane]; }
    QCPColorScale* colourScale() const { return scale_; }
    // Source markers drawn on a plane (over every size class).
    int markerCount(std::size_t plane) const;
    // The planes in a row (3) or a column (1, the colour scale beside the middle one).
    void setColumns(int columns);
    int columns() const { return columns_; }
    // Height that makes the three planes square at the current width.
    int squareHeight() const;

  private:
    std::array<QCPTextElement*, 3> titles_{};
    std::array<QCPAxisRect*, 3> rects_{};
    std::array<QCPColorMap*, 3> maps_{};
    std::array<std::vector<QCPGraph*>, 3> markerGraphs_;
    QCPItemStraightLine* profileLine_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    int columns_ = 3;
};

} // namespace clscope::ui
