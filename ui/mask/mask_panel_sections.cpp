// MaskPanel: building the tabs (Geometry, Partition, Tools, Files).
#include "ui/mask/mask_panel.hpp"

#include "ui/base/q_unit.hpp"
#include "ui/mask/mask_presenter.hpp"
#include "ui/mask/mask_workbench_link.hpp"

#include <QAction>
#include <QButtonGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

QDoubleSpinBox* spin(QWidget* parent, double low, double high, int decimals,
                     const QString& suffix) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(low, high);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setKeyboardTracking(false);
    return box;
}

QToolButton* toolButton(QWidget* parent, const QString& text, const QString& tip) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

QWidget* MaskPanel::buildGeometryTab() {
    auto* tab = new QWidget(this);
    auto* form = new QFormLayout(tab);
    // The actions first: in view however short the Mask dock is (at 1280×800 a last row of
    // buttons was cut in half by its bottom edge); the values scroll under them.
    auto* buttons = new QHBoxLayout;
    auto* importPoni = new QPushButton("Import PONI…", tab);
    auto* exportPoni = new QPushButton("Export PONI…", tab);
    fromFile_ = new QPushButton("From file", tab);
    fromFile_->setToolTip("Use the open file's /entry/processing/geometry");
    fromFile_->setEnabled(false);
    buttons->addWidget(importPoni);
    buttons->addWidget(exportPoni);
    buttons->addWidget(fromFile_);
    form->addRow(buttons);
    beamX_ = spin(tab, -1e5, 1e5, 2, " px");
    beamY_ = spin(tab, -1e5, 1e5, 2, " px");
    distance_ = spin(tab, 1e-4, 1e3, 4, " m");
    pixelSize_ = spin(tab, 0.01, 1e5, 2, " µm");
    wavelength_ = spin(tab, 1e-4, 1e3, 5, " Å");
    energy_ = spin(tab, 1e-3, 1e4, 4, " keV");
    form->addRow("Beam centre x", beamX_);
    form->addRow("Beam centre y", beamY_);
    form->addRow("Distance", distance_);
    form->addRow("Pixel size", pixelSize_);
    form->addRow("Wavelength", wavelength_);
    form->addRow("Energy", energy_);
    for (QDoubleSpinBox* box : {beamX_, beamY_, distance_, pixelSize_, wavelength_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &MaskPanel::applyGeometry);
    // Energy and wavelength are one value: editing the energy sets the wavelength.
    connect(energy_, &QDoubleSpinBox::valueChanged, this,
            [this](double keV) { wavelength_->setValue(mask::wavelengthFromEnergy(keV) * 1e10); });
    geometrySource_ = new QLabel(tab);
    form->addRow("Source", geometrySource_);
    connect(importPoni, &QPushButton::clicked, this, [this] {
        fileAction("Import PONI", false, "PONI (*.poni)", &MaskEditorPresenter::importPoni);
    });
    connect(exportPoni, &QPushButton::clicked, this, [this] {
        fileAction("Export PONI", true, "PONI (*.poni)", &MaskEditorPresenter::exportPoni);
    });
    connect(fromFile_, &QPushButton::clicked, this,
            [this] { tryRun("geometry from file", [this] { link_->useFileGeometry(); }); });
    return tab;
}

QWidget* MaskPanel::buildPartitionTab() {
    auto* tab = new QWidget(this);
    auto* form = new QFormLayout(tab);
    axis_ = new QComboBox(tab);
    axis_->addItems({"q (" + qUnit + ")", "radius (px)"});
    spacing_ = new QComboBox(tab);
    spacing_->addItems({"linear", "logarithmic"});
    binMin_ = spin(tab, 0, 1e6, 5, ""); // q in Å⁻¹: five decimals
    binMax_ = spin(tab, 0, 1e6, 5, "");
    bins_ = new QSpinBox(tab);
    bins_->setRange(1, 100000);
    bins_->setValue(10);
    sectors_ = new QSpinBox(tab);
    sectors_->setRange(1, 3600);
    phi0_ = spin(tab, -360, 360, 1, "°");
    form->addRow("Axis", axis_);
    form->addRow("Spacing", spacing_);
    form->addRow("Minimum", binMin_);
    form->addRow("Maximum", binMax_);
    form->addRow("&Bins", bins_); // Alt+B, Alt+E, Alt+A: the partition from the keyboard
    form->addRow("φ s&ectors", sectors_);
    form->addRow("φ₀", phi0_);
    auto* buttons = new QHBoxLayout;
    auto* apply = new QPushButton("&Apply", tab);
    apply->setObjectName("applyPartition");
    apply->setDefault(true);
    auto* seed = new QPushButton("Seed rings", tab);
    seed->setToolTip("Radius bins of 10 pixels, r // 10 as the synthetic xpcs dataset's labels");
    auto* range = new QPushButton("Fit range", tab);
    range->setToolTip("Minimum 0, maximum the largest q (or radius) on the unmasked pixels");
    buttons->addWidget(apply);
    buttons->addWidget(seed);
    buttons->addWidget(range);
    form->addRow(buttons);
    connect(apply, &QPushButton::clicked, this, &MaskPanel::applyPartition);
    connect(seed, &QPushButton::clicked, this, &MaskPanel::applySeedRings);
    connect(range, &QPushButton::clicked, this, &MaskPanel::suggestRange);
    connect(axis_, &QComboBox::currentIndexChanged, this, &MaskPanel::suggestRange);
    return tab;
}

QWidget* MaskPanel::buildToolsTab() {
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);
    layout->addWidget(buildToolButtons());
    layout->addWidget(buildThresholdRow());
    layout->addWidget(buildEditButtons());
    layout->addWidget(buildShapeList(), 1);
    summary_ = new QLabel(tab);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    return tab;
}

// Mode (mask / unmask), the drawing tool and the brush radius.
QWidget* MaskPanel::buildToolButtons() {
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    modeGroup_ = new QButtonGroup(box);
    const QStringList modes{"Mask", "Unmask"};
    for (int i = 0; i < modes.size(); ++i) {
        QToolButton* b = toolButton(
            box, modes[i], i == 0 ? "Tools mark pixels as bad" : "Tools mark pixels as good");
        b->setCheckable(true);
        b->setChecked(i == 0);
        modeGroup_->addButton(b, i);
        grid->addWidget(b, 0, i);
    }
    connect(modeGroup_, &QButtonGroup::idClicked, this, [this](int id) {
        editor_->setEditMode(id == 0 ? mask::EditMode::Mask : mask::EditMode::Unmask);
    });
    toolGroup_ = new QButtonGroup(box);
    const QStringList tools{"Pan", "Rectangle", "Ellipse", "Polygon", "Brush"};
    for (int i = 0; i < tools.size(); ++i) {
        QToolButton* b = toolButton(
            box, tools[i], i == 3 ? "Click vertices, double-click to close (Esc drops)" : "");
        b->setCheckable(true);
        b->setChecked(i == 0);
        toolGroup_->addButton(b, i);
        grid->addWidget(b, 1 + i / 3, i % 3);
    }
    connect(toolGroup_, &QButtonGroup::idClicked, this,
            [this](int id) { draw_->setTool(static_cast<MaskTool>(id)); });
    connect(draw_, &MaskDrawTool::toolChanged, this, [this](MaskTool tool) {
        toolGroup_->button(static_cast<int>(tool))->setChecked(true);
    });
    brushRadius_ = spin(box, 0.5, 500, 1, " px");
    brushRadius_->setValue(draw_->brushRadius());
    brushRadius_->setToolTip("Brush radius");
    connect(brushRadius_, &QDoubleSpinBox::valueChanged, this,
            [this](double r) { draw_->setBrushRadius(r); });
    grid->addWidget(brushRadius_, 2, 2);
    return box;
}

// Threshold mode and values over the button that applies it.
QWidget* MaskPanel::buildThresholdRow() {
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    thresholdMode_ = new QComboBox(box);
    thresholdMode_->addItems({"below", "between", "above", "NaN"});
    thresholdLow_ = spin(box, -1e6, 1e6, 2, "");
    thresholdHigh_ = spin(box, -1e6, 1e6, 2, "");
    thresholdLow_->setToolTip("low: 'below' takes v < low, 'between' low ≤ v ≤ high");
    thresholdHigh_->setToolTip("high: 'above' takes v > high");
    auto* apply = new QPushButton("Threshold", box);
    apply->setToolTip("Mask (or unmask) the pixels of the image shown selected by value");
    grid->addWidget(thresholdMode_, 0, 0);
    grid->addWidget(thresholdLow_, 0, 1);
    grid->addWidget(thresholdHigh_, 0, 2);
    grid->addWidget(apply, 1, 0);
    connect(apply, &QPushButton::clicked, this, &MaskPanel::applyThreshold);
    return box;
}

// Invert, clear, rasterise, undo and redo (Ctrl+Z, Ctrl+Shift+Z).
QWidget* MaskPanel::buildEditButtons() {
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    QToolButton* invert =
        toolButton(box, "Invert", "Masked pixels become good and good ones masked");
    QToolButton* clear = toolButton(box, "Clear", "Unmask every pixel and drop the shapes");
    QToolButton* rasterise = toolButton(box, "Rasterise", "Paint the pending shapes into the mask");
    connect(invert, &QToolButton::clicked, this, [this] { editor_->invert(); });
    connect(clear, &QToolButton::clicked, this, [this] { editor_->clear(); });
    connect(rasterise, &QToolButton::clicked, this, [this] { editor_->rasterizeShapes(); });
    // Fixed texts (the step to be undone goes in the tooltip) keep the panel narrow.
    QUndoStack* stack = editor_->undoStack();
    auto* undo = new QAction("Undo", this);
    auto* redo = new QAction("Redo", this);
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    redo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(undo, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redo, &QAction::triggered, stack, &QUndoStack::redo);
    connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, undo,
            [undo](const QString& t) { undo->setToolTip("Undo " + t + " (Ctrl+Z)"); });
    connect(stack, &QUndoStack::redoTextChanged, redo,
            [redo](const QString& t) { redo->setToolTip("Redo " + t + " (Ctrl+Shift+Z)"); });
    addAction(undo);
    addAction(redo);
    auto* undoButton = new QToolButton(box);
    auto* redoButton = new QToolButton(box);
    undoButton->setDefaultAction(undo);
    redoButton->setDefaultAction(redo);
    for (QToolButton* b : {invert, clear, rasterise, undoButton, redoButton})
        row->addWidget(b);
    row->addStretch(1);
    return box;
}

QWidget* MaskPanel::buildShapeList() {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel("Shapes (vectors until rasterised):", box));
    shapeList_ = new QListWidget(box);
    layout->addWidget(shapeList_, 1);
    auto* row = new QHBoxLayout;
    QToolButton* remove = toolButton(box, "Delete", "Delete the selected shape");
    QToolButton* toggle = toolButton(box, "Mask ↔ unmask", "Change what the selected shape does");
    row->addWidget(remove);
    row->addWidget(toggle);
    row->addStretch(1);
    layout->addLayout(row);
    connect(shapeList_, &QListWidget::currentRowChanged, this,
            [this](int row) { draw_->setSelectedShape(row); });
    connect(remove, &QToolButton::clicked, this, [this] {
        if (shapeList_->currentRow() >= 0)
            editor_->removeShape(static_cast<std::size_t>(shapeList_->currentRow()));
    });
    connect(toggle, &QToolButton::clicked, this, [this] {
        const int row = shapeList_->currentRow();
        if (row < 0) return;
        const mask::EditMode mode = editor_->shapes()[static_cast<std::size_t>(row)].mode;
        editor_->setShapeMode(static_cast<std::size_t>(row), mode == mask::EditMode::Mask
                                                                 ? mask::EditMode::Unmask
                                                                 : mask::EditMode::Mask);
    });
    return box;
}

QWidget* MaskPanel::buildFilesTab() {
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);
    const QString filter = "HDF5 (*.h5 *.hdf5 *.nxs);;NumPy (*.npy)";
    struct Entry {
        QString text, tip;
        bool save;
        std::function<void(MaskEditorPresenter&, const QString&)> action;
    };
    const Entry entries[] = {
        {"Save mask…", "NXmx /entry/instrument/detector/pixel_mask (non-zero = masked) or .npy",
         true,
         [](MaskEditorPresenter& m, const QString& f) {
             m.saveMask(f);
             m.undoStack()->setClean(); // quitting no longer asks about these edits
         }},
        {"Load mask…", "A pixel mask (.h5 NXmx pixel_mask, .npy); one undo step", false,
         &MaskEditorPresenter::loadMask},
        {"Save labels…",
         ".h5: /entry/processing/qmask with its q/φ table, pixel mask and geometry; .npy: labels",
         true, &MaskEditorPresenter::saveLabels},
        {"Load labels…", "/entry/processing/qmask (with its table and geometry) or .npy", false,
         &MaskEditorPresenter::loadLabels},
    };
    for (const Entry& e : entries) {
        auto* button = new QPushButton(e.text, tab);
        button->setToolTip(e.tip);
        layout->addWidget(button);
        connect(button, &QPushButton::clicked, this,
                [this, e, filter] { fileAction(e.text, e.save, filter, e.action); });
    }
    auto* note = new QLabel("Masks: non-zero = masked. Labels: 0 = excluded; saved labels are the "
                            "partition with masked pixels set to 0.",
                            tab);
    note->setWordWrap(true);
    layout->addWidget(note);
    layout->addStretch(1);
    return tab;
}

} // namespace clscope::ui
