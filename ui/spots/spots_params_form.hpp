// The spot finder's parameters under DIALS' names (spotfinder.threshold.dispersion.*,
// spotfinder.filter.*): algorithm, gain, kernel size, σ_background, σ_strong, min_local,
// global_threshold (a number or auto), min/max spot size. changed() after every edit.
#pragma once
#include "core/params.hpp"
#include "core/spots/spots.hpp"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace clscope::ui {

class SpotsParamsForm : public QGroupBox {
    Q_OBJECT
  public:
    explicit SpotsParamsForm(QWidget* parent = nullptr);
    spots::Params params() const;
    void setParams(const spots::Params& p);
    // The spots parameter set (for runAlgorithm and the Compare dock).
    ParamSet paramSet() const;

    QComboBox* algorithm() const { return algorithm_; }
    QDoubleSpinBox* sigmaStrong() const { return sigmaStrong_; }
    QDoubleSpinBox* sigmaBackground() const { return sigmaBackground_; }
    QDoubleSpinBox* gain() const { return gain_; }
    QSpinBox* kernelX() const { return kernelX_; }

  signals:
    void changed();

  private:
    QDoubleSpinBox* addDouble(const QString& tip, double low, double high, double step,
                              int decimals);
    QSpinBox* addInt(const QString& tip, int low, int high);
    QComboBox* algorithm_ = nullptr;
    QDoubleSpinBox *gain_ = nullptr, *sigmaBackground_ = nullptr, *sigmaStrong_ = nullptr,
                   *global_ = nullptr;
    QSpinBox *kernelX_ = nullptr, *kernelY_ = nullptr, *minLocal_ = nullptr, *minSize_ = nullptr,
             *maxSize_ = nullptr;
    QCheckBox* globalAuto_ = nullptr;
};

} // namespace clscope::ui
