// File ▸ Generate synthetic dataset: the four kinds of `clscope-cli generate` with their options.
#pragma once
#include "ui/data/synthetic_request.hpp"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QCheckBox;

namespace clscope::ui {

class GenerateDialog : public QDialog {
    Q_OBJECT
  public:
    explicit GenerateDialog(QWidget* parent = nullptr);
    SyntheticRequest request() const;
    QString outputPath() const;
    void setOutputPath(const QString& path);
    void setKind(SyntheticRequest::Kind kind);

  private:
    QWidget* xpcsPage();
    QWidget* diffractionPage();
    QWidget* digisPage();
    QWidget* particlesPage();
    QComboBox* kindBox_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* compression_ = nullptr;
    QLineEdit* output_ = nullptr;
    // xpcs
    QSpinBox *xFrames_ = nullptr, *xHeight_ = nullptr, *xWidth_ = nullptr;
    QDoubleSpinBox *xRingWidth_ = nullptr, *xIntensity_ = nullptr, *xFrameTime_ = nullptr;
    QComboBox *xDtype_ = nullptr, *xModel_ = nullptr;
    QDoubleSpinBox* xDiffusion_ = nullptr;
    // diffraction
    QSpinBox *dFrames_ = nullptr, *dHeight_ = nullptr, *dWidth_ = nullptr, *dSpots_ = nullptr;
    QDoubleSpinBox *dBackground_ = nullptr, *dSpotIntensity_ = nullptr;
    QCheckBox* dGaps_ = nullptr;
    // digis
    QSpinBox *gModules_ = nullptr, *gDuplicates_ = nullptr, *gInvalid_ = nullptr;
    QDoubleSpinBox* gClusters_ = nullptr;
    // particles
    QSpinBox *pSources_ = nullptr, *pGrid_ = nullptr;
    QCheckBox* pComplex_ = nullptr;
};

} // namespace clscope::ui
