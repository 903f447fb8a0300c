#include "ui/spots/spots_params_form.hpp"

#include "gpu/spots/algorithm.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace clscope::ui {

QDoubleSpinBox* SpotsParamsForm::addDouble(const QString& tip, double low, double high, double step,
                                           int decimals) {
    auto* box = new QDoubleSpinBox(this);
    box->setRange(low, high);
    box->setSingleStep(step);
    box->setDecimals(decimals);
    box->setToolTip(tip);
    box->setKeyboardTracking(false);
    connect(box, &QDoubleSpinBox::valueChanged, this, &SpotsParamsForm::changed);
    return box;
}

QSpinBox* SpotsParamsForm::addInt(const QString& tip, int low, int high) {
    auto* box = new QSpinBox(this);
    box->setRange(low, high);
    box->setToolTip(tip);
    box->setKeyboardTracking(false);
    connect(box, &QSpinBox::valueChanged, this, &SpotsParamsForm::changed);
    return box;
}

SpotsParamsForm::SpotsParamsForm(QWidget* parent) : QGroupBox("Threshold (DIALS names)", parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(6, 6, 6, 6);
    algorithm_ = new QComboBox(this);
    algorithm_->addItems({"dispersion", "dispersion_extended"});
    algorithm_->setToolTip("spotfinder.threshold.algorithm");
    connect(algorithm_, &QComboBox::currentIndexChanged, this, &SpotsParamsForm::changed);
    form->addRow("algorithm", algorithm_);
    gain_ = addDouble("gain: detector gain (1 = DIALS without a gain map)", 0.01, 1000, 0.1, 3);
    form->addRow("gain", gain_);
    kernelX_ = addInt("kernel_size, fast (x) half-width: window 2·KX+1", 1, 64);
    kernelY_ = addInt("kernel_size, slow (y) half-width: window 2·KY+1", 1, 64);
    auto* kernel = new QHBoxLayout;
    kernel->addWidget(kernelX_);
    kernel->addWidget(new QLabel("×", this));
    kernel->addWidget(kernelY_);
    form->addRow("kernel (px)", kernel);
    sigmaBackground_ = addDouble("sigma_background: index-of-dispersion threshold", 0, 100, 0.5, 2);
    form->addRow("σ_background", sigmaBackground_);
    sigmaStrong_ = addDouble("sigma_strong: pixel above the local mean", 0, 100, 0.5, 2);
    form->addRow("σ_strong", sigmaStrong_);
    minLocal_ =
        addInt("min_local: valid pixels needed in the window (0: the whole window)", 0, 20000);
    form->addRow("min_local", minLocal_);
    global_ = addDouble("global_threshold (counts): pixels must exceed it", 0, 1e7, 1, 1);
    globalAuto_ = new QCheckBox("auto", this);
    globalAuto_->setToolTip(
        "global_threshold = Auto: DIALS' elbow estimate (live: over the frame)");
    connect(globalAuto_, &QCheckBox::toggled, this, [this](bool on) {
        global_->setEnabled(!on);
        emit changed();
    });
    auto* global = new QHBoxLayout;
    global->addWidget(global_, 1);
    global->addWidget(globalAuto_);
    form->addRow("global_threshold", global);
    minSize_ = addInt("filter.min_spot_size (pixels)", 0, 1000000);
    maxSize_ = addInt("filter.max_spot_size (pixels)", 0, 100000000);
    form->addRow("min spot size (px)", minSize_);
    form->addRow("max spot size (px)", maxSize_);
    setParams(spots::Params{});
}

spots::Params SpotsParamsForm::params() const {
    spots::Params p;
    p.method = spots::methodFromName(algorithm_->currentText().toStdString());
    p.gain = gain_->value();
    p.kernelX = kernelX_->value(), p.kernelY = kernelY_->value();
    p.sigmaBackground = sigmaBackground_->value(), p.sigmaStrong = sigmaStrong_->value();
    p.minLocal = minLocal_->value();
    p.globalThreshold = global_->value(), p.globalAuto = globalAuto_->isChecked();
    p.minSpotSize = minSize_->value(), p.maxSpotSize = maxSize_->value();
    return p;
}

void SpotsParamsForm::setParams(const spots::Params& p) {
    {
        const QSignalBlocker blocks[] = {
            QSignalBlocker(algorithm_),       QSignalBlocker(gain_),
            QSignalBlocker(kernelX_),         QSignalBlocker(kernelY_),
            QSignalBlocker(sigmaBackground_), QSignalBlocker(sigmaStrong_),
            QSignalBlocker(minLocal_),        QSignalBlocker(global_),
            QSignalBlocker(globalAuto_),      QSignalBlocker(minSize_),
            QSignalBlocker(maxSize_)};
        algorithm_->setCurrentText(QString::fromStdString(spots::methodName(p.method)));
        gain_->setValue(p.gain);
        kernelX_->setValue(p.kernelX), kernelY_->setValue(p.kernelY);
        sigmaBackground_->setValue(p.sigmaBackground), sigmaStrong_->setValue(p.sigmaStrong);
        minLocal_->setValue(p.minLocal);
        global_->setValue(p.globalThreshold), globalAuto_->setChecked(p.globalAuto);
        global_->setEnabled(!p.globalAuto);
        minSize_->setValue(p.minSpotSize), maxSize_->setValue(p.maxSpotSize);
    }
    emit changed();
}

ParamSet SpotsParamsForm::paramSet() const {
    const spots::Params p = params();
    ParamSet set = spots::SpotsAlgorithm().defaultParams();
    set.set("threshold_algorithm", spots::methodName(p.method));
    set.set("gain", p.gain);
    set.set("kernel_size", nlohmann::json::array({p.kernelX, p.kernelY}));
    set.set("sigma_background", p.sigmaBackground);
    set.set("sigma_strong", p.sigmaStrong);
    set.set("min_local", p.minLocal);
    set.set("global_threshold", p.globalAuto ? nlohmann::json("auto")
                                             : nlohmann::json(std::to_string(p.globalThreshold)));
    set.set("min_spot_size", p.minSpotSize);
    set.set("max_spot_size", p.maxSpotSize);
    return set;
}

} // namespace clscope::ui
