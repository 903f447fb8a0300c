// The Image panel: a QCPColorMap with its QCPColorScale, the controls above it, overlay
// layers and a cursor readout (x, y, value, overlay labels under the cursor). Reductions over
// many frames run on a FrameReducer: the caption shows their progress next to a Cancel button.
#pragma once
#include "ui/image/frame_reducer.hpp"
#include "ui/image/image_controls.hpp"
#include "ui/image/image_presenter.hpp"
#include "ui/image/overlay_layer.hpp"

#include <QWidget>
#include <functional>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QLabel;
class QSettings;
class QToolButton;

namespace clscope::ui {

class ImageView : public QWidget {
    Q_OBJECT
  public:
    explicit ImageView(QWidget* parent = nullptr);
    ~ImageView() override;

    // Show frames from a source (an HDF5 dataset or an array); nullptr clears the view.
    void setFrameSource(std::shared_ptr<const FrameSource> source);
    // Pixel mask (non-zero = bad, H*W); masked pixels draw in the masked colour and are left
    // out of the auto-contrast. An empty vector removes it.
    void setPixelMask(std::vector<std::uint8_t> bad);

    // Add an overlay layer, replacing one of the same name; returns it (owned by the view).
    OverlayLayer* setOverlay(OverlayData data);
    void removeOverlay(const QString& name);
    OverlayLayer* overlay(const QString& name) const;
    QStringList overlayNames() const;
    // Show or hide every overlay of an owner (OverlayData::owner), those added later too: a
    // panel's overlays are drawn and read only while it is active.
    void setOwnerActive(const QString& owner, bool active);

    // Text of the cursor readout for pixel (x, y), e.g. "x 12  y 40  value 3 | q bins 3".
    QString readoutAt(double x, double y);
    // Extra readout text for pixel (x, y) (e.g. q and phi from the mask editor's geometry),
    // appended after the value; an empty function removes it.
    void setReadoutExtra(std::function<QString(std::size_t x, std::size_t y)> extra);
    // While a drawing tool owns the mouse: no panning by drag, no fit on double-click.
    void setDrawingActive(bool active);
    bool drawingActive() const { return drawingActive_; }
    void fitImage();
    // Show this region (data coordinates) as a user zoom would: a resize no longer refits.
    void showRegion(double x0, double x1, double y0, double y1);
    // The region `halfWidth` pixels either side of (x, y), as tall as the view's aspect keeps it.
    void showAround(double x, double y, double halfWidth);

    // A long reduction under way: the presenter still holds the previous image.
    bool isReducing() const { return reducer_->isBusy(); }
    void cancelReduction() { reducer_->cancel(); }
    FrameReducer* reducer() const { return reducer_; }

    ImagePresenter& presenter() { return presenter_; }
    ImageControls* controls() const { return controls_; }
    QCustomPlot* plot() const { return plot_; }
    QCPColorMap* colorMap() const { return map_; }
    QCPColorScale* colorScale() const { return scale_; }

    void saveSettings(QSettings& s) const { controls_->saveSettings(s); }
    void restoreSettings(QSettings& s) { controls_->restoreSettings(s); }

  signals:
    void readoutChanged(const QString& text);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void buildPlot();
    void applySelection();
    void connectReducer();
    void showReductionProgress(double fraction);
    void showReductionEnded(const QString& note);
    void redraw();
    void drawImage(); // the presenter's image into the colour map (throws where unreadable)
    void applyAppearance();
    void rebuildOverlayMenu();
    void onMouseMove(QMouseEvent* event);
    void keepPixelsSquare();
    void rescaleAboutCentre(double perX, double perY);

    ImagePresenter presenter_;
    ImageControls* controls_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QLabel* readout_ = nullptr;
    QLabel* caption_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
    FrameReducer* reducer_ = nullptr;
    std::vector<std::unique_ptr<OverlayLayer>> overlays_;
    QStringList inactiveOwners_;
    bool userZoomed_ = false;
    bool rescalePending_ = false;
    bool drawingActive_ = false;
    std::function<QString(std::size_t, std::size_t)> readoutExtra_;
};

} // namespace clscope::ui
