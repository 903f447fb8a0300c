// The image view's control rows: frame slider and number, reduction over a frame range,
// colour map, normalisation, auto-contrast, y orientation, masked colour, overlays, zoom.
#pragma once
#include "ui/image/image_math.hpp"

#include <QColor>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QSlider;
class QSpinBox;
class QToolButton;
class QSettings;

namespace clscope::ui {

class ImageControls : public QWidget {
    Q_OBJECT
  public:
    explicit ImageControls(QWidget* parent = nullptr);

    void setFrameCount(std::size_t frames);
    std::size_t frame() const;
    void setFrame(std::size_t frame);
    Reduction reduction() const;
    std::size_t firstFrame() const;
    std::size_t lastFrame() const;
    void setReduction(Reduction r, std::size_t first, std::size_t last);
    QString colormap() const;
    void setColormap(const QString& name);
    Normalisation normalisation() const;
    void setNormalisation(Normalisation n);
    ContrastSettings contrast() const;
    void setContrast(const ContrastSettings& c);
    bool yDown() const;
    QColor maskedColor() const { return maskedColor_; }
    void setMaskedColor(const QColor& c);
    QMenu* overlayMenu() const { return overlayMenu_; }

    QSlider* frameSlider() const { return frameSlider_; }
    QSpinBox* frameSpin() const { return frameSpin_; }

    void saveSettings(QSettings& s) const;
    void restoreSettings(QSettings& s);

  signals:
    void selectionChanged();  // frame, reduction or range
    void appearanceChanged(); // colour map, normalisation, contrast, masked colour
    void orientationChanged(bool yDown);
    void resetZoomRequested();

  private:
    QWidget* buildFrameRow();
    QWidget* buildAppearanceRow();
    void updateEnabled();
    QSlider* frameSlider_ = nullptr;
    QSpinBox *frameSpin_ = nullptr, *firstSpin_ = nullptr, *lastSpin_ = nullptr;
    QLabel* frameTotal_ = nullptr;
    QComboBox *reductionBox_ = nullptr, *colormapBox_ = nullptr, *normalisationBox_ = nullptr,
              *contrastBox_ = nullptr;
    QDoubleSpinBox *lowPercentile_ = nullptr, *highPercentile_ = nullptr, *sigmas_ = nullptr;
    QCheckBox* yDownBox_ = nullptr;
    QToolButton *maskedColorButton_ = nullptr, *overlayButton_ = nullptr;
    QMenu* overlayMenu_ = nullptr;
    QColor maskedColor_ = QColor(255, 0, 255);
};

} // namespace clscope::ui
