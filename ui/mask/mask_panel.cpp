#include "ui/mask/mask_panel.hpp"
#include "ui/base/scrollable.hpp"

#include "ui/base/q_unit.hpp"

#include "ui/image/image_view.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/mask_presenter.hpp"
#include "ui/mask/mask_workbench_link.hpp"

#include <QButtonGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace clscope::ui {

MaskPanel::MaskPanel(Workbench& workbench, QWidget* parent) : QWidget(parent), wb_(workbench) {
    editor_ = new MaskEditorPresenter(this);
    draw_ = new MaskDrawTool(wb_.image(), *editor_, this);
    link_ = new MaskWorkbenchLink(wb_, *editor_, this);
    tabs_ = new QTabWidget(this);
    // Each tab scrolls on its own, so that the label table below keeps rows in view (at
    // 1600x1000 the tallest tab left it one row).
    tabs_->addTab(scrollable(buildGeometryTab()), "Geometry");
    tabs_->addTab(scrollable(buildPartitionTab()), "&Partition"); // Alt+P
    tabs_->addTab(scrollable(buildToolsTab()), "Tools");
    tabs_->addTab(scrollable(buildFilesTab()), "Files");
    table_ = new QTableWidget(0, 4, this);
    table_->setHorizontalHeaderLabels({"label", "pixels", "q (" + qUnit + ")", "φ (°)"});
    table_->horizontalHeaderItem(2)->setToolTip(
        "q centre of the label: middle of its bin (geometric mean for log bins)");
    table_->horizontalHeaderItem(3)->setToolTip("φ centre of the label's sector; — for full rings");
    table_->horizontalHeaderItem(1)->setToolTip("pixels of the label that are not masked");
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(tabs_);
    splitter->addWidget(table_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({600, 400});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);
    connectEditor();
    showGeometry();
    refreshSummary();
}

void MaskPanel::showTab(const QString& title) {
    for (int i = 0; i < tabs_->count(); ++i)
        if (tabs_->tabText(i).remove('&') == title) tabs_->setCurrentIndex(i);
}

void MaskPanel::connectEditor() {
    connect(editor_, &MaskEditorPresenter::geometryChanged, this, [this] {
        showGeometry();
        // The file's geometry comes after its image: the default range follows it.
        if (!editor_->hasPartition() && editor_->hasImage()) suggestRange();
    });
    connect(editor_, &MaskEditorPresenter::labelsChanged, this, &MaskPanel::refreshTable);
    connect(editor_, &MaskEditorPresenter::shapesChanged, this, &MaskPanel::refreshShapes);
    connect(editor_, &MaskEditorPresenter::maskChanged, this, &MaskPanel::refreshSummary);
    connect(link_, &MaskWorkbenchLink::fileGeometryAvailable, fromFile_, &QPushButton::setEnabled);
    // A new image: ranges that fit it.
    connect(editor_, &MaskEditorPresenter::partitionChanged, this, [this] {
        if (!editor_->hasPartition() && editor_->hasImage()) suggestRange();
        if (editor_->hasPartition()) showPartitionRange();
    });
}

void MaskPanel::showGeometry() {
    const mask::Geometry& g = editor_->geometry();
    const QSignalBlocker blocks[] = {QSignalBlocker(beamX_),      QSignalBlocker(beamY_),
                                     QSignalBlocker(distance_),   QSignalBlocker(pixelSize_),
                                     QSignalBlocker(wavelength_), QSignalBlocker(energy_)};
    beamX_->setValue(g.beamCenterX);
    beamY_->setValue(g.beamCenterY);
    distance_->setValue(g.distance);
    pixelSize_->setValue(g.pixelSizeX * 1e6);
    wavelength_->setValue(g.wavelength * 1e10);
    energy_->setValue(mask::energyFromWavelength(g.wavelength));
    QString source = editor_->geometrySource();
    if (source == "file") source = "from file (/entry/processing/geometry)";
    if (g.rotated()) source += ", rotated (PONI rot1–3 kept)";
    geometrySource_->setText(source);
}

// The spin boxes into the editor; rotations and a non-square pixel stay unless edited.
void MaskPanel::applyGeometry() {
    mask::Geometry g = editor_->geometry();
    g.beamCenterX = beamX_->value();
    g.beamCenterY = beamY_->value();
    g.distance = distance_->value();
    if (std::abs(pixelSize_->value() - g.pixelSizeX * 1e6) > 1e-9)
        g.pixelSizeX = g.pixelSizeY = pixelSize_->value() * 1e-6;
    g.wavelength = wavelength_->value() * 1e-10;
    tryRun("geometry", [&] { editor_->setGeometry(g, "edited"); });
    QSignalBlocker block(energy_);
    energy_->setValue(mask::energyFromWavelength(editor_->geometry().wavelength));
}

// Minimum 0 and maximum the largest q (or radius) on the unmasked pixels.
void MaskPanel::suggestRange() {
    if (!editor_->hasImage()) return;
    const auto [low, high] = editor_->fittingRange(binAxis(), spacing_->currentIndex() == 0
                                                                  ? mask::BinSpacing::Linear
                                                                  : mask::BinSpacing::Logarithmic);
    showBounds(binAxis(), low, high);
}

mask::BinAxis MaskPanel::binAxis() const {
    return axis_->currentIndex() == 0 ? mask::BinAxis::Q : mask::BinAxis::Radius;
}

// The bounds in the editor's units (q in nm⁻¹, radius in px), shown in the screen's (q in Å⁻¹).
void MaskPanel::showBounds(mask::BinAxis axis, double low, double high) {
    const bool isQ = axis == mask::BinAxis::Q;
    binMin_->setValue(isQ ? qShown(low) : low);
    binMax_->setValue(isQ ? qShown(high) : high);
}

// The range in force (it follows the geometry on the q axis).
void MaskPanel::showPartitionRange() {
    const auto& spec = editor_->partitionSpec();
    if (!spec) return;
    showBounds(spec->axis, spec->min, spec->max);
}

void MaskPanel::applyPartition() {
    mask::PartitionSpec spec;
    spec.axis = binAxis();
    spec.spacing =
        spacing_->currentIndex() == 0 ? mask::BinSpacing::Linear : mask::BinSpacing::Logarithmic;
    const bool isQ = spec.axis == mask::BinAxis::Q;
    spec.min = isQ ? qInverseNm(binMin_->value()) : binMin_->value();
    spec.max = isQ ? qInverseNm(binMax_->value()) : binMax_->value();
    spec.bins = bins_->value();
    spec.sectors = sectors_->value();
    spec.phi0 = phi0_->value();
    tryRun("partition", [&] { editor_->applyPartition(spec); });
}

// The seed's labels: floor(r / 10) out to the image's corners.
void MaskPanel::applySeedRings() {
    if (!editor_->hasImage()) return;
    const double corner =
        std::hypot(static_cast<double>(editor_->width()), static_cast<double>(editor_->height())) /
        2;
    const mask::PartitionSpec spec = mask::seedRings(10.0, static_cast<int>(corner / 10.0));
    const QSignalBlocker block(axis_);
    axis_->setCurrentIndex(1);
    spacing_->setCurrentIndex(0);
    showBounds(spec.axis, spec.min, spec.max);
    bins_->setValue(spec.bins);
    sectors_->setValue(spec.sectors);
    phi0_->setValue(spec.phi0);
    tryRun("seed rings", [&] { editor_->applyPartition(spec); });
}

void MaskPanel::applyThreshold() {
    mask::Threshold t;
    t.mode = static_cast<mask::Threshold::Mode>(thresholdMode_->currentIndex());
    t.low = thresholdLow_->value();
    t.high = thresholdHigh_->value();
    tryRun("threshold", [&] { editor_->threshold(shownImage(wb_.image()), t); });
}

void MaskPanel::refreshTable() {
    const std::vector<LabelRow> rows = editor_->labelRows();
    table_->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const LabelRow& row = rows[static_cast<std::size_t>(r)];
        const QString cells[] = {QString::number(row.label), QString::number(row.pixels),
                                 QString::number(qShown(row.q), 'f', 5),
                                 std::isnan(row.phi) ? QString("—")
                                                     : QString::number(row.phi, 'f', 1)};
        for (int c = 0; c < 4; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, c, item);
        }
    }
    refreshSummary();
}

void MaskPanel::refreshShapes() {
    static const char* names[] = {"rectangle", "ellipse", "polygon", "brush"};
    const int current = shapeList_->currentRow();
    shapeList_->clear();
    const auto& shapes = editor_->shapes();
    for (std::size_t k = 0; k < shapes.size(); ++k)
        shapeList_->addItem(QString("%1. %2 — %3")
                                .arg(k + 1)
                                .arg(names[shapes[k].shape.index()])
                                .arg(shapes[k].mode == mask::EditMode::Unmask ? "unmask" : "mask"));
    if (current >= 0 && current < shapeList_->count()) shapeList_->setCurrentRow(current);
    refreshSummary();
}

void MaskPanel::refreshSummary() {
    if (!summary_) return;
    if (!editor_->hasImage()) {
        summary_->setText("Open an image to edit its mask.");
        return;
    }
    const double total = static_cast<double>(editor_->height() * editor_->width());
    const std::size_t masked = editor_->maskedCount();
    summary_->setText(
        QString("%1 masked pixels (%2 %), %3 pending shapes, %4 labels")
            .arg(masked)
            .arg(100.0 * static_cast<double>(masked) / total, 0, 'f', 2)
            .arg(editor_->shapes().size())
            .arg(editor_->hasPartition() ? editor_->partition()->centers.labelIds.size() : 0));
}

void MaskPanel::fileAction(
    const QString& what, bool save, const QString& filter,
    const std::function<void(MaskEditorPresenter&, const QString&)>& action) {
    const QString title = QString(what).remove("…");
    const QString path = save ? QFileDialog::getSaveFileName(this, title, QString(), filter)
                              : QFileDialog::getOpenFileName(this, title, QString(), filter);
    if (path.isEmpty()) return;
    if (tryRun(title + " " + path, [&] { action(*editor_, path); }))
        wb_.log(LogLevel::Info, title + ": " + path);
}

bool MaskPanel::tryRun(const QString& what, const std::function<void()>& action) {
    try {
        action();
        return true;
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("mask editor: %1 failed: %2").arg(what, e.what()));
        emit wb_.statusMessage(QString("%1: %2").arg(what, e.what()), 8000);
        return false;
    }
}

} // namespace clscope::ui
