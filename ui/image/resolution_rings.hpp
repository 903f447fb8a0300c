// Resolution rings on the image view: a closed curve where each of a few round Bragg spacings
// d falls (core/mask/rings.hpp), labelled "d Å", on their own layer above the image and its
// overlays. Drawn while the user shows them (View ▸ Resolution rings), a geometry is known and
// the panel they belong to is active.
#pragma once
#include "core/mask/geometry.hpp"

#include <QPointer>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPCurve;
class QCPItemText;
class QCPLayer;

namespace clscope::ui {

class ResolutionRings {
  public:
    explicit ResolutionRings(QCustomPlot* plot);
    ~ResolutionRings();
    ResolutionRings(const ResolutionRings&) = delete;
    ResolutionRings& operator=(const ResolutionRings&) = delete;

    // The geometry of the image shown (none: no rings) and its size in pixels.
    void setGeometry(std::optional<mask::Geometry> geometry, std::size_t height, std::size_t width);
    void setShown(bool shown);        // the user's choice
    void setOwnerActive(bool active); // the owning panel is in front (or pinned)
    bool isVisible() const;
    // The spacings drawn (Å), one curve and one label each.
    const std::vector<double>& spacings() const { return spacings_; }
    const std::vector<QCPCurve*>& curves() const { return curves_; }
    const std::vector<QCPItemText*>& labels() const { return labels_; }

  private:
    void clear();
    void rebuild();
    void applyVisibility();
    QPointer<QCustomPlot> plot_;
    QCPLayer* layer_ = nullptr;
    std::optional<mask::Geometry> geometry_;
    std::size_t height_ = 0, width_ = 0;
    std::vector<double> spacings_;
    std::vector<QCPCurve*> curves_;
    std::vector<QCPItemText*> labels_;
    bool shown_ = false, ownerActive_ = true;
};

} // namespace clscope::ui
