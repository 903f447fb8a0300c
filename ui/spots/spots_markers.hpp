// Spot boxes and centroids drawn on the image view's plot, on their own layer above the image
// and its overlays: one rectangle per spot (the half-open bbox, pixel edges), a cross at each
// centroid, and the selected spot's box thicker, in white.
#pragma once
#include "core/spots/spots.hpp"

#include <QColor>
#include <QPointer>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QCPItemRect;
class QCPLayer;

namespace clscope::ui {

class SpotMarkers {
  public:
    explicit SpotMarkers(QCustomPlot* plot);
    ~SpotMarkers();
    SpotMarkers(const SpotMarkers&) = delete;
    SpotMarkers& operator=(const SpotMarkers&) = delete;

    // Replace the markers; selected is an index into spots.
    void setSpots(const std::vector<spots::Spot>& spots, std::optional<std::size_t> selected);
    void setVisible(bool visible);
    std::size_t boxCount() const { return boxes_.size(); }
    QCPGraph* centroids() const { return centroids_; }
    // Most boxes drawn (the brightest spots when a frame has more).
    static constexpr std::size_t maxBoxes = 3000;

  private:
    void clearBoxes();
    QPointer<QCustomPlot> plot_;
    QCPLayer* layer_ = nullptr;
    QCPGraph* centroids_ = nullptr;
    std::vector<QCPItemRect*> boxes_;
    bool visible_ = true;
};

} // namespace clscope::ui
