// RbfPanel: the form (sources, kernel and grid, run, display, export) and how it follows the
// open file and the device. Runs, deliveries and exports: rbf_panel_run.cpp.
#include "ui/rbf/rbf_panel.hpp"
#include "ui/base/qstring.hpp"
#include "ui/kit/variant_combo.hpp"

#include "gpu/rbf/rbf_gpu.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <cmath>

namespace clscope::ui {

namespace {

QFormLayout* formIn(QGroupBox* box) {
    auto* form = new QFormLayout(box);
    form->setContentsMargins(6, 6, 6, 6);
    return form;
}

} // namespace

RbfPanel::RbfPanel(Workbench& workbench, QWidget* parent)
    : TypedPanel(workbench, "rbf", "rbf", parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    // The grid's planes are the panel's own (the form's "planes" 0 would read the file's).
    form_ = new ParamForm(rbfAlgorithm(), "Kernel", {"planes"}, {}, this);
    for (QWidget* w : {buildSources(), static_cast<QWidget*>(form_), buildTargets(), buildRun(),
                       buildDisplay(), buildExport()})
        layout->addWidget(w);
    layout->addStretch(1);
    // Narrow docks: controls may shrink below their texts' width (the dock does not scroll
    // sideways).
    for (QComboBox* box : findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }
    for (QAbstractSpinBox* box : findChildren<QAbstractSpinBox*>())
        box->setMinimumWidth(60);
    live_ = new LiveRerun(
        wb_.jobs(), [this] { return evaluationJob(); }, 150, this);
    connect(live_, &LiveRerun::submitted, this, [this] { liveRunSubmitted(); });
    connectControls();
    refreshSources();
    refreshVariants();
    refreshDisplays();
}

QWidget* RbfPanel::buildSources() {
    auto* box = new QGroupBox("Sources", this);
    QFormLayout* form = formIn(box);
    sourceMode_ = new QComboBox(box);
    sourceMode_->addItem("open file (particles role)", "file");
    sourceMode_->addItem("generated (seed: random in the unit cube)", "generated");
    sourceMode_->setToolTip("Sources and weights from the open file's particles group "
                            "(/particles/sources, /particles/weights), or made by "
                            "clscope-cli generate particles' generator (complex weights for "
                            "Helmholtz)");
    form->addRow("From", sourceMode_);
    sourcesInfo_ = new QLabel(box);
    sourcesInfo_->setWordWrap(true);
    form->addRow(sourcesInfo_);
    sourceCount_ = new QSpinBox(box);
    sourceCount_->setRange(1, 10000000);
    sourceCount_->setValue(50);
    sourceCount_->setToolTip("Generated sources (the seed: 50)");
    seed_ = new QSpinBox(box);
    seed_->setRange(0, 1 << 30);
    seed_->setToolTip("Random seed of the generator");
    for (QSpinBox* s : {sourceCount_, seed_})
        s->setKeyboardTracking(false);
    auto* row = new QHBoxLayout;
    row->addWidget(sourceCount_, 1);
    row->addWidget(new QLabel("seed", box));
    row->addWidget(seed_, 1);
    form->addRow("Generated", row);
    return box;
}

QWidget* RbfPanel::buildTargets() {
    auto* box = new QGroupBox("Targets", this);
    QFormLayout* form = formIn(box);
    grid_ = new QSpinBox(box);
    grid_->setRange(2, 4000);
    grid_->setValue(400);
    grid_->setKeyboardTracking(false);
    grid_->setToolTip("n: targets on three n × n grids of the planes xy, xz, yz of the unit cube "
                      "(the seed: 400)");
    form->addRow("Grid n", grid_);
    return box;
}

QWidget* RbfPanel::buildRun() {
    auto* box = new QGroupBox("Run", this);
    QFormLayout* form = formIn(box);
    deviceInfo_ = new QLabel(box);
    deviceInfo_->setWordWrap(true);
    form->addRow("Device", deviceInfo_);
    variant_ = makeVariantCombo(wb_, "rbf", box);
    form->addRow("Variant", variant_);
    liveBox_ = new QCheckBox("re-evaluate on change", box);
    liveBox_->setToolTip("Kernel, σ, k, grid and sources re-evaluate 150 ms after the last change, "
                         "off the GUI thread");
    liveBox_->setChecked(true);
    form->addRow("Live", liveBox_);
    form->addRow(makeRunButton(box));
    return box;
}

QWidget* RbfPanel::buildDisplay() {
    auto* box = new QGroupBox("Display", this);
    QFormLayout* form = formIn(box);
    display_ = new QComboBox(box);
    display_->setToolTip("Complex results (Helmholtz, complex weights): |f|, Re f, Im f, arg f");
    form->addRow("Show", display_);
    scale_ = new QComboBox(box);
    scale_->addItem("linear", int(RbfScale::Linear));
    scale_->addItem("log", int(RbfScale::Log));
    form->addRow("Colour scale", scale_);
    profilePlane_ = new QComboBox(box);
    for (std::size_t p = 0; p < 3; ++p)
        profilePlane_->addItem(q(planeTitle(p)), int(p));
    form->addRow("Profile plane", profilePlane_);
    profileDirection_ = new QComboBox(box);
    profileDirection_->addItem("row (along the horizontal axis)", true);
    profileDirection_->addItem("column (along the vertical axis)", false);
    form->addRow("Profile along", profileDirection_);
    profileIndex_ = new QSpinBox(box);
    profileIndex_->setRange(0, grid_->value() - 1);
    profileIndex_->setValue(grid_->value() / 2);
    profileAt_ = new QLabel(box);
    auto* row = new QHBoxLayout;
    row->addWidget(profileIndex_, 1);
    row->addWidget(profileAt_, 1);
    form->addRow("Grid line", row);
    return box;
}

QWidget* RbfPanel::buildExport() {
    auto* box = new QGroupBox("Export the planes", this);
    auto* row = new QHBoxLayout(box);
    exportH5_ = new QPushButton("HDF5…", box);
    exportH5_->setToolTip("/rbf/potential (3n² values, [re, im] when complex) with device, "
                          "variant, parameters — as clscope-cli rbf --planes N writes it");
    exportPng_ = new QPushButton("PNG…", box);
    exportPng_->setToolTip("The three planes with their colour bar");
    row->addWidget(exportH5_);
    row->addWidget(exportPng_);
    connect(exportH5_, &QPushButton::clicked, this, [this] { exportDialog(true); });
    connect(exportPng_, &QPushButton::clicked, this, [this] { exportDialog(false); });
    return box;
}

void RbfPanel::connectControls() {
    const auto changed = [this] { parametersChanged(); };
    connect(sourceMode_, &QComboBox::currentIndexChanged, this, changed);
    connect(form_, &ParamForm::changed, this, changed);
    // A new variant only re-runs (rebuilding the list here would drop the choice).
    connect(variant_, &QComboBox::currentIndexChanged, this, [this] { requestRerun(true); });
    for (QSpinBox* box : {sourceCount_, seed_, grid_})
        connect(box, &QSpinBox::valueChanged, this, changed);
    const auto redraw = [this] { displayChanged(); };
    for (QComboBox* box : {display_, scale_, profilePlane_, profileDirection_})
        connect(box, &QComboBox::currentIndexChanged, this, redraw);
    connect(profileIndex_, &QSpinBox::valueChanged, this, redraw);
    connect(liveBox_, &QCheckBox::toggled, this, [this](bool on) { live_->setEnabled(on); });
    connect(&wb_, &Workbench::fileOpened, this, [this] { refreshSources(); });
    connect(&wb_, &Workbench::roleChanged, this, [this](DataRole role) {
        if (role == DataRole{"particles"}) refreshSources();
    });
    connect(&wb_, &Workbench::deviceChanged, this, changed);
}

// A control that changes the sums: the shown planes are stale; re-evaluate when live and the
// panel has run once (opening the window or another algorithm's file starts nothing).
void RbfPanel::parametersChanged(bool rerun) {
    const std::string kernel = form_->paramSet().text("kernel");
    form_->field("sigma")->setEnabled(kernel == "gaussian");
    form_->field("wavenumber")->setEnabled(kernel == "helmholtz");
    const bool generated = sourceMode_->currentData().toString() == "generated";
    sourceCount_->setEnabled(generated);
    seed_->setEnabled(generated);
    keepProfilePosition();
    refreshVariants();
    requestRerun(rerun);
}

// A new grid n keeps the profile line where the user put it: the same coordinate in the cube
// (y = 0.50 stays 0.50), not the same row index.
void RbfPanel::keepProfilePosition() {
    const int last = grid_->value() - 1, oldLast = profileIndex_->maximum();
    if (last == oldLast) return;
    const double fraction = oldLast > 0 ? double(profileIndex_->value()) / oldLast : 0.5;
    profileIndex_->setMaximum(last);
    profileIndex_->setValue(int(std::lround(fraction * last)));
}

void RbfPanel::requestRerun(bool rerun) {
    emit wb_.parametersChanged("rbf");
    if (rerun && (delivered_ > 0 || isRunning())) live_->request();
}

// The file's sources, read once per file (small: N x 3 positions and weights).
void RbfPanel::refreshSources() {
    fileSources_.reset();
    fileSourcesError_.clear();
    const DatasetRoles& roles = wb_.dataset();
    const auto path = roles.path(DataRole{"particles"});
    if (!roles.file() || !path) {
        fileSourcesError_ = "no particles in the open file";
    } else {
        try {
            fileSources_ = std::make_shared<RbfSources>(fileSources(*roles.file(), *path));
        } catch (const std::exception& e) {
            fileSourcesError_ = e.what();
            wb_.log(LogLevel::Warning, QString("rbf: %1").arg(e.what()));
        }
    }
    const QSignalBlocker block(sourceMode_);
    sourceMode_->setCurrentIndex(fileSources_ ? 0 : 1);
    sourcesInfo_->setText(
        fileSources_ ? QString("file: %1 sources, %2 weights")
                           .arg(fileSources_->problem.sourceCount())
                           .arg(fileSources_->problem.complexWeights ? "complex" : "real")
                     : QString("file: %1 — using generated sources").arg(q(fileSourcesError_)));
    parametersChanged(fileSources_ != nullptr);
}

// The registry's variants for this device, sources and parameters; unusable ones greyed.
void RbfPanel::refreshVariants() {
    const DeviceInfo& device = wb_.device();
    deviceInfo_->setText(q(device.spec + "  " + device.name));
    const std::string previous = variant_->count() ? variant() : wb_.variant("rbf");
    std::vector<RbfVariantOption> options;
    try {
        options = rbfVariantOptions(request());
    } catch (const std::exception&) {
        RbfRunRequest bare;
        bare.device = device;
        options = rbfVariantOptions(bare);
    }
    const std::string fallback = rbfAlgorithm().defaultVariant(device);
    if (!fillVariantCombo(*variant_, options, previous, fallback) && !previous.empty() &&
        variant_->findData(q(fallback)) >= 0)
        wb_.log(LogLevel::Info,
                q("rbf: " + previous + " cannot run with these settings; using " + fallback));
}

std::string RbfPanel::variant() const {
    return comboVariant(*variant_);
}

RbfRunRequest RbfPanel::request() const {
    RbfRunRequest r;
    r.form = form_->paramSet();
    r.kernel = rbf::parseKernel(r.form.text("kernel"));
    r.sigma = r.form.number("sigma");
    r.wavenumber = r.form.number("wavenumber");
    r.grid = static_cast<std::size_t>(grid_->value());
    r.variant = variant();
    r.device = wb_.device();
    if (sourceMode_->currentData().toString() == "generated")
        r.sources = std::make_shared<RbfSources>(
            generatedSources(std::size_t(sourceCount_->value()), std::uint64_t(seed_->value()),
                             r.kernel == rbf::Kernel::Helmholtz));
    else if (fileSources_)
        r.sources = fileSources_;
    else
        throw InputError("rbf: " + fileSourcesError_ + "; choose generated sources");
    return r;
}

} // namespace clscope::ui
