#include "ui/image/image_controls.hpp"

#include "ui/image/colormaps.hpp"

#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

QComboBox* comboOf(const QStringList& items, const QString& tip, QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->addItems(items);
    box->setToolTip(tip);
    return box;
}

QDoubleSpinBox* percentBox(double value, const QString& tip, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0.0, 100.0);
    box->setDecimals(2);
    box->setSingleStep(0.5);
    box->setValue(value);
    box->setSuffix(" %");
    box->setToolTip(tip);
    return box;
}

QIcon colorSwatch(const QColor& c) {
    QPixmap pixmap(14, 14);
    pixmap.fill(c);
    return QIcon(pixmap);
}

} // namespace

ImageControls::ImageControls(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(buildFrameRow());
    layout->addWidget(buildAppearanceRow());
    setFrameCount(0);
    updateEnabled();
}

QWidget* ImageControls::buildFrameRow() {
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    frameSlider_ = new QSlider(Qt::Horizontal, row);
    frameSlider_->setToolTip("Frame shown (PgUp / PgDn step through frames)");
    frameSpin_ = new QSpinBox(row);
    frameTotal_ = new QLabel(row);
    reductionBox_ =
        comboOf({"frame", "sum", "mean", "max"}, "Show one frame, or combine a frame range", row);
    firstSpin_ = new QSpinBox(row);
    lastSpin_ = new QSpinBox(row);
    firstSpin_->setToolTip("First frame of the range (inclusive)");
    lastSpin_->setToolTip("Last frame of the range (inclusive)");
    h->addWidget(new QLabel("Frame", row));
    h->addWidget(frameSlider_, 1);
    h->addWidget(frameSpin_);
    h->addWidget(frameTotal_);
    h->addSpacing(8);
    h->addWidget(reductionBox_);
    h->addWidget(new QLabel("frames", row));
    h->addWidget(firstSpin_);
    h->addWidget(new QLabel("to", row));
    h->addWidget(lastSpin_);
    connect(frameSlider_, &QSlider::valueChanged, frameSpin_, &QSpinBox::setValue);
    connect(frameSpin_, &QSpinBox::valueChanged, frameSlider_, &QSlider::setValue);
    connect(frameSpin_, &QSpinBox::valueChanged, this, &ImageControls::selectionChanged);
    connect(reductionBox_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emit selectionChanged();
    });
    connect(firstSpin_, &QSpinBox::valueChanged, this, &ImageControls::selectionChanged);
    connect(lastSpin_, &QSpinBox::valueChanged, this, &ImageControls::selectionChanged);
    return row;
}

QWidget* ImageControls::buildAppearanceRow() {
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    colormapBox_ = comboOf(colormapNames(), "Colour map", row);
    normalisationBox_ =
        comboOf({"linear", "log", "sqrt"}, "Normalisation of the colour scale", row);
    contrastBox_ = comboOf({"min–max", "percentile", "mean ± kσ"},
                           "Auto-contrast (masked pixels ignored)", row);
    contrastBox_->setCurrentIndex(1);
    lowPercentile_ = percentBox(1.0, "Lower percentile of the colour range", row);
    highPercentile_ = percentBox(99.5, "Upper percentile of the colour range", row);
    sigmas_ = new QDoubleSpinBox(row);
    sigmas_->setRange(0.1, 20.0);
    sigmas_->setValue(3.0);
    sigmas_->setPrefix("k = ");
    sigmas_->setToolTip("Colour range mean ± k standard deviations");
    yDownBox_ = new QCheckBox("y down", row);
    yDownBox_->setChecked(true);
    yDownBox_->setToolTip("Row 0 at the top (detector convention); untick for y up");
    maskedColorButton_ = new QToolButton(row);
    maskedColorButton_->setText("Masked");
    maskedColorButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    maskedColorButton_->setToolTip("Colour of masked and NaN pixels");
    overlayButton_ = new QToolButton(row);
    overlayButton_->setText("Overlays");
    overlayButton_->setPopupMode(QToolButton::InstantPopup);
    overlayMenu_ = new QMenu(overlayButton_);
    overlayButton_->setMenu(overlayMenu_);
    auto* resetZoom = new QToolButton(row);
    resetZoom->setText("Fit");
    resetZoom->setToolTip("Show the whole image (also: double-click the image)");
    for (QWidget* w : std::initializer_list<QWidget*>{
             colormapBox_, normalisationBox_, contrastBox_, lowPercentile_, highPercentile_,
             sigmas_, yDownBox_, maskedColorButton_, overlayButton_, resetZoom})
        h->addWidget(w);
    h->addStretch(1);
    setMaskedColor(maskedColor_);
    for (QComboBox* box : {colormapBox_, normalisationBox_, contrastBox_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            updateEnabled();
            emit appearanceChanged();
        });
    for (QDoubleSpinBox* box : {lowPercentile_, highPercentile_, sigmas_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ImageControls::appearanceChanged);
    connect(yDownBox_, &QCheckBox::toggled, this, &ImageControls::orientationChanged);
    connect(resetZoom, &QToolButton::clicked, this, &ImageControls::resetZoomRequested);
    connect(maskedColorButton_, &QToolButton::clicked, this, [this] {
        const QColor c = QColorDialog::getColor(maskedColor_, this, "Colour of masked pixels");
        if (c.isValid()) setMaskedColor(c);
    });
    return row;
}

void ImageControls::updateEnabled() {
    const bool single = reduction() == Reduction::Single;
    const bool stack = frameSpin_->maximum() > 0;
    frameSlider_->setEnabled(single && stack);
    frameSpin_->setEnabled(single && stack);
    firstSpin_->setEnabled(!single);
    lastSpin_->setEnabled(!single);
    const ContrastMode mode = contrast().mode;
    lowPercentile_->setVisible(mode == ContrastMode::Percentile);
    highPercentile_->setVisible(mode == ContrastMode::Percentile);
    sigmas_->setVisible(mode == ContrastMode::MeanSigma);
}

void ImageControls::setFrameCount(std::size_t frames) {
    const int last = frames > 0 ? static_cast<int>(frames) - 1 : 0;
    const QSignalBlocker b1(frameSlider_), b2(frameSpin_), b3(firstSpin_), b4(lastSpin_);
    for (QSpinBox* box : {frameSpin_, firstSpin_, lastSpin_})
        box->setRange(0, last);
    frameSlider_->setRange(0, last);
    frameSlider_->setPageStep(std::max(1, last / 20));
    frameSpin_->setValue(0);
    frameSlider_->setValue(0);
    firstSpin_->setValue(0);
    lastSpin_->setValue(last);
    frameTotal_->setText(QString("of %1").arg(frames));
    updateEnabled();
}

std::size_t ImageControls::frame() const {
    return static_cast<std::size_t>(frameSpin_->value());
}
void ImageControls::setFrame(std::size_t frame) {
    frameSpin_->setValue(static_cast<int>(frame));
}
Reduction ImageControls::reduction() const {
    return static_cast<Reduction>(reductionBox_->currentIndex());
}
std::size_t ImageControls::firstFrame() const {
    return static_cast<std::size_t>(firstSpin_->value());
}
std::size_t ImageControls::lastFrame() const {
    return static_cast<std::size_t>(lastSpin_->value());
}

void ImageControls::setReduction(Reduction r, std::size_t first, std::size_t last) {
    {
        const QSignalBlocker b1(firstSpin_), b2(lastSpin_);
        firstSpin_->setValue(static_cast<int>(first));
        lastSpin_->setValue(static_cast<int>(last));
    }
    if (reductionBox_->currentIndex() == static_cast<int>(r)) emit selectionChanged();
    reductionBox_->setCurrentIndex(static_cast<int>(r));
}

QString ImageControls::colormap() const {
    return colormapBox_->currentText();
}
void ImageControls::setColormap(const QString& name) {
    const int index = colormapBox_->findText(name);
    if (index >= 0) colormapBox_->setCurrentIndex(index);
}

Normalisation ImageControls::normalisation() const {
    return static_cast<Normalisation>(normalisationBox_->currentIndex());
}
void ImageControls::setNormalisation(Normalisation n) {
    normalisationBox_->setCurrentIndex(static_cast<int>(n));
}

ContrastSettings ImageControls::contrast() const {
    return {static_cast<ContrastMode>(contrastBox_->currentIndex()), lowPercentile_->value(),
            highPercentile_->value(), sigmas_->value()};
}

void ImageControls::setContrast(const ContrastSettings& c) {
    {
        const QSignalBlocker b1(lowPercentile_), b2(highPercentile_), b3(sigmas_);
        lowPercentile_->setValue(c.lowPercentile);
        highPercentile_->setValue(c.highPercentile);
        sigmas_->setValue(c.sigmas);
    }
    if (contrastBox_->currentIndex() == static_cast<int>(c.mode)) emit appearanceChanged();
    contrastBox_->setCurrentIndex(static_cast<int>(c.mode));
}

bool ImageControls::yDown() const {
    return yDownBox_->isChecked();
}

void ImageControls::setMaskedColor(const QColor& c) {
    maskedColor_ = c;
    maskedColorButton_->setIcon(colorSwatch(c));
    emit appearanceChanged();
}

void ImageControls::saveSettings(QSettings& s) const {
    s.setValue("image/colormap", colormap());
    s.setValue("image/normalisation", normalisationBox_->currentIndex());
    s.setValue("image/contrast", contrastBox_->currentIndex());
    s.setValue("image/lowPercentile", lowPercentile_->value());
    s.setValue("image/highPercentile", highPercentile_->value());
    s.setValue("image/sigmas", sigmas_->value());
    s.setValue("image/yDown", yDown());
    s.setValue("image/maskedColor", maskedColor_.name());
}

void ImageControls::restoreSettings(QSettings& s) {
    setColormap(s.value("image/colormap", colormap()).toString());
    normalisationBox_->setCurrentIndex(s.value("image/normalisation", 0).toInt());
    setContrast({static_cast<ContrastMode>(s.value("image/contrast", 1).toInt()),
                 s.value("image/lowPercentile", 1.0).toDouble(),
                 s.value("image/highPercentile", 99.5).toDouble(),
                 s.value("image/sigmas", 3.0).toDouble()});
    yDownBox_->setChecked(s.value("image/yDown", true).toBool());
    setMaskedColor(QColor(s.value("image/maskedColor", maskedColor_.name()).toString()));
}

} // namespace clscope::ui
