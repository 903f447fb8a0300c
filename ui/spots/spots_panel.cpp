// SpotsPanel: the form (input, parameters, view, run, export) and how it follows the open
// file and the device. Live thresholding: spots_panel_live.cpp; runs and exports:
// spots_panel_run.cpp.
#include "ui/spots/spots_panel.hpp"
#include "ui/base/qstring.hpp"
#include "ui/kit/panel_column.hpp"
#include "ui/kit/scripted_form.hpp"
#include "ui/kit/variant_combo.hpp"
#include "ui/params/frame_range_edit.hpp"

#include "core/io.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/spots_gpu.hpp"
#include "ui/image/image_view.hpp"
#include "ui/image/resolution_rings.hpp"
#include "ui/image/stream_frame_source.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/spots/spots_markers.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace clscope::ui {

SpotsPanel::SpotsPanel(Workbench& workbench, QWidget* parent)
    : TypedPanel(workbench, "spots", "Spots", parent) {
    const PanelColumn column = panelColumnWithInputLine(*this);
    QVBoxLayout* layout = column.layout;
    inputInfo_ = column.inputInfo;
    // phil and debug are files of the command line; the panel exports its own.
    form_ = new ParamForm(
        AlgorithmRegistry::instance().find("spots"), "Threshold (DIALS names)", {"phil", "debug"},
        [](const ParamSet& p) { spots::Algorithm().parameters(p); }, this);
    layout->addWidget(form_);
    layout->addWidget(buildView());
    layout->addWidget(buildRun());
    layout->addWidget(buildExport());
    layout->addStretch(1);
    markers_ = std::make_unique<SpotMarkers>(wb_.image().plot());
    rings_ = std::make_unique<ResolutionRings>(wb_.image().plot());
    rings_->setOwnerActive(wb_.isPanelActive("spots"));
    rings_->setShown(wb_.resolutionRingsShown());
    connect(&wb_, &Workbench::geometryChanged, this, [this] { placeRings(); });
    connect(&wb_, &Workbench::resolutionRingsShownChanged, this,
            [this](bool shown) { rings_->setShown(shown); });
    live_ = new LiveRerun(
        wb_.jobs(), [this] { return makeLiveJob(); }, 150, this);
    connect(form_, &ParamForm::changed, this, [this] {
        emit wb_.parametersChanged("spots");
        refreshVariants();
        requestLive();
    });
    connect(&wb_, &Workbench::fileOpened, this, [this] { refreshInput(); });
    connect(&wb_, &Workbench::roleChanged, this, [this] { refreshInput(); });
    connect(&wb_, &Workbench::deviceChanged, this, [this] { refreshVariants(); });
    connect(&wb_, &Workbench::panelActiveChanged, this, [this](const QString& owner, bool on) {
        if (owner == "spots") onActiveChanged(on);
    });
    // The image view's own frame slider moves the spots frame too.
    connect(wb_.image().controls(), &ImageControls::selectionChanged, this, [this] {
        const std::size_t shown = wb_.image().controls()->frame();
        if (frames_ && shown != frame()) setFrame(shown);
    });
    refreshInput();
    refreshVariants();
}

SpotsPanel::~SpotsPanel() = default;

QWidget* SpotsPanel::buildView() {
    auto* box = new QGroupBox("View", this);
    auto* form = new QFormLayout(box);
    form->setContentsMargins(6, 6, 6, 6);
    frameSpin_ = new QSpinBox(box);
    frameSpin_->setRange(0, 0);
    frameSpin_->setToolTip("Frame thresholded live (0-based)");
    auto* back = new QToolButton(box);
    back->setText("◀");
    back->setToolTip("Previous frame");
    auto* next = new QToolButton(box);
    next->setText("▶");
    next->setToolTip("Next frame");
    playButton_ = new QToolButton(box);
    playButton_->setText("Play");
    playButton_->setCheckable(true);
    playButton_->setToolTip("Step through the frames, each thresholded before the next");
    playTimer_ = new QTimer(this);
    playTimer_->setInterval(400);
    auto* row = new QHBoxLayout;
    row->addWidget(back);
    row->addWidget(frameSpin_, 1);
    row->addWidget(next);
    row->addWidget(playButton_);
    form->addRow("Frame", row);
    imageBox_ = new QComboBox(box);
    for (SpotsImage image : spotsImages())
        imageBox_->addItem(q(spotsImageName(image)), static_cast<int>(image));
    imageBox_->setToolTip("What the image view shows: the frame or a step of DIALS' threshold "
                          "(as dials.image_viewer's threshold debug images)");
    form->addRow("Image", imageBox_);
    overlayBox_ = new QCheckBox("signal pixels", box);
    markersBox_ = new QCheckBox("spot boxes", box);
    overlayBox_->setChecked(true), markersBox_->setChecked(true);
    auto* shows = new QHBoxLayout;
    shows->addWidget(overlayBox_);
    shows->addWidget(markersBox_);
    form->addRow("Show", shows);
    liveInfo_ = new QLabel("—", box);
    liveInfo_->setWordWrap(true);
    form->addRow("Live", liveInfo_);
    connect(frameSpin_, &QSpinBox::valueChanged, this, [this] {
        if (frames_) wb_.image().controls()->setFrame(frame());
        requestLive();
    });
    connect(back, &QToolButton::clicked, this, [this] { frameSpin_->stepBy(-1); });
    connect(next, &QToolButton::clicked, this, [this] { frameSpin_->stepBy(1); });
    connect(playButton_, &QToolButton::toggled, this,
            [this](bool on) { on ? playTimer_->start() : playTimer_->stop(); });
    connect(playTimer_, &QTimer::timeout, this, [this] { stepPlay(); });
    connect(imageBox_, &QComboBox::currentIndexChanged, this, [this] { requestLive(); });
    connect(overlayBox_, &QCheckBox::toggled, this, [this] { showOverlay(); });
    connect(markersBox_, &QCheckBox::toggled, this, [this](bool on) {
        markers_->setVisible(on && wb_.isPanelActive("spots"));
        wb_.image().plot()->replot();
    });
    return box;
}

QWidget* SpotsPanel::buildRun() {
    auto* box = new QGroupBox("Run over the frames", this);
    auto* form = new QFormLayout(box);
    form->setContentsMargins(6, 6, 6, 6);
    range_ = new FrameRangeEdit(box);
    form->addRow("First frame", range_);
    connect(range_, &FrameRangeEdit::changed, this,
            [this] { emit wb_.parametersChanged("spots"); });
    deviceInfo_ = new QLabel(box);
    deviceInfo_->setWordWrap(true);
    form->addRow("Device", deviceInfo_);
    variant_ = makeVariantCombo(wb_, "spots", box);
    form->addRow("Variant", variant_);
    form->addRow(makeRunButton(box, "The frame range with the chosen variant: the spot table and "
                                    "the counts per frame (Results). Live tuning always uses the "
                                    "host reference."));
    return box;
}

QWidget* SpotsPanel::buildExport() {
    auto* box = new QGroupBox("Export", this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(6, 6, 6, 6);
    const auto add = [&](const QString& text, const QString& tip, const QString& filter,
                         bool (SpotsPanel::*write)(const QString&)) {
        auto* button = new QPushButton(text, box);
        button->setToolTip(tip);
        row->addWidget(button);
        connect(button, &QPushButton::clicked, this, [this, text, filter, write] {
            const QString path = QFileDialog::getSaveFileName(this, "Export " + text, {}, filter);
            if (!path.isEmpty()) (this->*write)(path);
        });
    };
    add("Signal mask…", "The last run's /spots/signal (T,H,W) uint8 as HDF5", "HDF5 (*.h5)",
        &SpotsPanel::exportSignalMask);
    add("Spot table…", "The last run's spots: HDF5 (/spots/...) or CSV by the file suffix",
        "HDF5 (*.h5);;CSV (*.csv)", &SpotsPanel::exportSpotTable);
    add("DIALS phil…", "These parameters as a DIALS find_spots.phil snippet", "phil (*.phil)",
        &SpotsPanel::exportPhil);
    return box;
}

// Frames and pixel mask as the workbench has them now; the live view starts again.
void SpotsPanel::refreshInput() {
    const DatasetRoles& roles = wb_.dataset();
    const auto framesPath = roles.path(DataRole::Frames);
    frames_.reset(), frameInput_.reset(), mask_ = {};
    showingDebug_ = false;
    presenter_->setFrameResult({});
    // Nothing of the previous file stays: its boxes and live figures go with it.
    markers_->setSpots({}, std::nullopt);
    liveInfo_->setText("—");
    QString text = "No frames — open a file and assign a frame stack in the Data panel.";
    try {
        if (framesPath && roles.file()) {
            frames_ = openFrameSource(roles.file(), *framesPath, roles.eventFrameTime());
            if (const auto maskPath = roles.path(DataRole::PixelMask))
                mask_ =
                    readPixelMask(*roles.file(), *maskPath, frames_->height(), frames_->width());
            text =
                QString("<b>Frames</b> %1:%2 — %3 × %4×%5<br><b>Pixel mask</b> %6")
                    .arg(QFileInfo(q(roles.file()->fileName())).fileName(), q(*framesPath))
                    .arg(frames_->frameCount())
                    .arg(frames_->height())
                    .arg(frames_->width())
                    .arg(mask_.bad.empty() ? QString("none") : q(*roles.path(DataRole::PixelMask)));
        }
    } catch (const std::exception& e) {
        frames_.reset();
        text = QString("<span style='color:#b00'>%1</span>").arg(QString(e.what()).toHtmlEscaped());
        wb_.log(LogLevel::Error, QString("Spots: %1").arg(e.what()));
    }
    inputInfo_->setText(text);
    const QSignalBlocker block(frameSpin_);
    frameSpin_->setRange(0, frames_ ? static_cast<int>(frames_->frameCount()) - 1 : 0);
    frameSpin_->setValue(0);
    range_->setRange({}); // the previous file's range does not apply to this one
    setRunRefusal(frames_ ? QString()
                          : QString("no frames: assign a frame stack in the Data panel"));
    placeRings();
    requestLive();
}

// The rings follow the geometry and the size of the frames.
void SpotsPanel::placeRings() {
    rings_->setGeometry(wb_.geometry(), frames_ ? frames_->height() : 0,
                        frames_ ? frames_->width() : 0);
}

// The spots variants on the current device; the ones that cannot run greyed with the reason.
void SpotsPanel::refreshVariants() {
    deviceInfo_->setText(q(wb_.device().spec + "  " + wb_.device().name));
    refillVariants(*variant_, wb_, AlgorithmRegistry::instance().find("spots"), form_->paramSet());
}

spots::Params SpotsPanel::params() const {
    return spots::Algorithm().parameters(form_->paramSet());
}

std::string SpotsPanel::variant() const {
    return comboVariant(*variant_);
}

void SpotsPanel::setVariant(const std::string& id) {
    selectComboVariant(*variant_, id);
}

FrameRange SpotsPanel::frameRange() const {
    return range_->range();
}

void SpotsPanel::setFrameRange(const FrameRange& range) {
    range_->setRange(range);
}

// phil and debug, not on the form, are taken as the command line takes them.
void SpotsPanel::applyScripted(const ScriptedSettings& settings) {
    const nlohmann::json others = setFormFrom(*form_, settings);
    for (const auto& [name, value] : others.items())
        form_->setValue(name, value);
    setFrameRange({settings.firstFrame, settings.frameCount});
    if (!settings.variant.empty()) setVariant(settings.variant);
}

std::size_t SpotsPanel::frame() const {
    return static_cast<std::size_t>(frameSpin_->value());
}

void SpotsPanel::setFrame(std::size_t frame) {
    frameSpin_->setValue(static_cast<int>(frame));
}

std::size_t SpotsPanel::frameCount() const {
    return frames_ ? frames_->frameCount() : 0;
}

SpotsImage SpotsPanel::image() const {
    return static_cast<SpotsImage>(imageBox_->currentData().toInt());
}

void SpotsPanel::setImage(SpotsImage image) {
    imageBox_->setCurrentIndex(imageBox_->findData(static_cast<int>(image)));
}

void SpotsPanel::setPlaying(bool playing) {
    playButton_->setChecked(playing);
}

} // namespace clscope::ui
