#include "ui/shell/generate_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <array>

namespace clscope::ui {

namespace {

QSpinBox* intBox(std::size_t value, int low, int high, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(low, high);
    box->setValue(static_cast<int>(value));
    return box;
}

QDoubleSpinBox* realBox(double value, double low, double high, int decimals, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(low, high);
    box->setDecimals(decimals);
    box->setValue(value);
    return box;
}

// The xpcs dtypes in the order of the dtype combo box.
constexpr std::array xpcsDtypes{DType::UInt8, DType::UInt16, DType::UInt32, DType::Int32,
                                DType::Float32};

QWidget* formPage(QWidget* parent, QFormLayout*& form) {
    auto* page = new QWidget(parent);
    form = new QFormLayout(page);
    return page;
}

} // namespace

GenerateDialog::GenerateDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle("Generate synthetic dataset");
    auto* layout = new QVBoxLayout(this);
    auto* top = new QFormLayout;
    kindBox_ = new QComboBox(this);
    kindBox_->addItems(
        {"xpcs — frames and ring q-bin labels", "diffraction — background with Gaussian spots",
         "digis — pixel digis of Phase-1 modules", "particles — sources and plane targets"});
    seed_ = intBox(0, 0, 1 << 30, this);
    compression_ = new QComboBox(this);
    compression_->addItems({"gzip", "none", "bslz4"});
    output_ = new QLineEdit(QDir::temp().filePath("clscope-xpcs.h5"), this);
    auto* browse = new QPushButton("Browse…", this);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(output_, 1);
    outputRow->addWidget(browse);
    top->addRow("Kind", kindBox_);
    top->addRow("Seed", seed_);
    top->addRow("Compression", compression_);
    top->addRow("Output", outputRow);
    pages_ = new QStackedWidget(this);
    pages_->addWidget(xpcsPage());
    pages_->addWidget(diffractionPage());
    pages_->addWidget(digisPage());
    pages_->addWidget(particlesPage());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText("Generate and open");
    layout->addLayout(top);
    layout->addWidget(pages_);
    layout->addWidget(buttons);
    connect(kindBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        pages_->setCurrentIndex(index);
        const QFileInfo old(output_->text());
        output_->setText(old.dir().filePath(
            "clscope-" + QString::fromStdString(kindName(request().kind)) + ".h5"));
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Output file", output_->text(),
                                                          "HDF5 (*.h5 *.hdf5)");
        if (!path.isEmpty()) output_->setText(path);
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QWidget* GenerateDialog::xpcsPage() {
    const synthetic::XpcsParams d;
    QFormLayout* form = nullptr;
    QWidget* page = formPage(this, form);
    xModel_ = new QComboBox(page);
    xModel_->addItems({"brownian", "seed"});
    xModel_->setCurrentText(QString::fromStdString(d.model));
    xModel_->setToolTip("brownian: diffusing particles in a SAXS geometry, g2 = 1 + β·exp(−2Dq²τ); "
                        "seed: the seed's flat-g2 bench data");
    form->addRow("Model", xModel_);
    form->addRow("Diffusion D (Å²/s, brownian)",
                 xDiffusion_ = realBox(d.diffusion, 1e-6, 1e12, 1, page));
    form->addRow("Frames T", xFrames_ = intBox(d.frames, 1, 1000000, page));
    form->addRow("Height H", xHeight_ = intBox(d.height, 1, 100000, page));
    form->addRow("Width W", xWidth_ = intBox(d.width, 1, 100000, page));
    form->addRow("Ring width (pixels)", xRingWidth_ = realBox(d.ringWidth, 0.5, 10000, 2, page));
    form->addRow("Peak mean counts I0", xIntensity_ = realBox(d.intensity, 0.0, 1e9, 2, page));
    form->addRow("Frame time (s, 0 = none)", xFrameTime_ = realBox(d.frameTime, 0.0, 1e6, 6, page));
    xDtype_ = new QComboBox(page);
    xDtype_->addItems({"uint8", "uint16", "uint32", "int32", "float32"});
    form->addRow("dtype", xDtype_);
    return page;
}

QWidget* GenerateDialog::diffractionPage() {
    const synthetic::DiffractionParams d;
    QFormLayout* form = nullptr;
    QWidget* page = formPage(this, form);
    form->addRow("Frames T", dFrames_ = intBox(d.frames, 1, 100000, page));
    form->addRow("Height H", dHeight_ = intBox(d.height, 1, 100000, page));
    form->addRow("Width W", dWidth_ = intBox(d.width, 1, 100000, page));
    form->addRow("Spots per frame", dSpots_ = intBox(d.spots, 0, 1000000, page));
    form->addRow("Background (counts/pixel)",
                 dBackground_ = realBox(d.background, 0.0, 1e6, 3, page));
    form->addRow("Spot intensity (counts)",
                 dSpotIntensity_ = realBox(d.spotIntensity, 0.0, 1e9, 1, page));
    dGaps_ = new QCheckBox("EIGER-like chip and module gaps (in pixel_mask)", page);
    form->addRow(dGaps_);
    return page;
}

QWidget* GenerateDialog::digisPage() {
    const synthetic::DigisParams d;
    QFormLayout* form = nullptr;
    QWidget* page = formPage(this, form);
    form->addRow("Modules", gModules_ = intBox(d.modules, 1, 100000, page));
    form->addRow("Clusters per module",
                 gClusters_ = realBox(d.clustersPerModule, 0.0, 10000, 2, page));
    form->addRow("Duplicated digis", gDuplicates_ = intBox(d.duplicates, 0, 1000000, page));
    form->addRow("Invalid digis", gInvalid_ = intBox(d.invalid, 0, 1000000, page));
    return page;
}

QWidget* GenerateDialog::particlesPage() {
    const synthetic::ParticlesParams d;
    QFormLayout* form = nullptr;
    QWidget* page = formPage(this, form);
    form->addRow("Sources N", pSources_ = intBox(d.sources, 1, 100000000, page));
    form->addRow("Grid points per side n", pGrid_ = intBox(d.gridPoints, 1, 100000, page));
    pComplex_ = new QCheckBox("Complex weights (Helmholtz)", page);
    form->addRow(pComplex_);
    return page;
}

SyntheticRequest GenerateDialog::request() const {
    SyntheticRequest r;
    r.kind = static_cast<SyntheticRequest::Kind>(kindBox_->currentIndex());
    r.seed = static_cast<std::uint64_t>(seed_->value());
    const QString c = compression_->currentText();
    r.compression = c == "none"    ? Compression::None
                    : c == "bslz4" ? Compression::Bitshuffle
                                   : Compression::Gzip;
    const auto size = [](const QSpinBox* box) { return static_cast<std::size_t>(box->value()); };
    r.xpcs.frames = size(xFrames_), r.xpcs.height = size(xHeight_), r.xpcs.width = size(xWidth_);
    r.xpcs.ringWidth = xRingWidth_->value(), r.xpcs.intensity = xIntensity_->value();
    r.xpcs.dtype = xpcsDtypes[static_cast<std::size_t>(xDtype_->currentIndex())];
    r.xpcs.frameTime = xFrameTime_->value(), r.xpcs.seed = r.seed;
    r.xpcs.model = xModel_->currentText().toStdString(), r.xpcs.diffusion = xDiffusion_->value();
    r.diffraction = {
        size(dFrames_),        size(dHeight_),           size(dWidth_),       size(dSpots_),
        dBackground_->value(), dSpotIntensity_->value(), dGaps_->isChecked(), r.seed};
    r.digis = {size(gModules_), gClusters_->value(), size(gDuplicates_), size(gInvalid_), r.seed};
    r.particles = {size(pSources_), size(pGrid_), pComplex_->isChecked(), r.seed};
    return r;
}

QString GenerateDialog::outputPath() const {
    return output_->text();
}
void GenerateDialog::setOutputPath(const QString& path) {
    output_->setText(path);
}
void GenerateDialog::setKind(SyntheticRequest::Kind kind) {
    kindBox_->setCurrentIndex(static_cast<int>(kind));
}

} // namespace clscope::ui
