// The Mask dock: the q-bin mask editor's widgets over MaskEditorPresenter. Tabs Geometry
// (beam centre, distance, pixel size, wavelength / energy, PONI import/export, the file's
// geometry), Partition (q or radius bins, linear/log, × φ sectors), Tools (mask/unmask, pan,
// rectangle, ellipse, polygon, brush, threshold, invert, clear, rasterise, undo/redo, the
// list of pending shapes) and Files (.h5/.npy masks and label maps), over a table of labels.
#pragma once
#include "core/mask/partition.hpp"
#include "ui/mask/mask_draw_tool.hpp"

#include <QWidget>
#include <functional>

class QButtonGroup;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace clscope::ui {

class MaskEditorPresenter;
class MaskWorkbenchLink;
class Workbench;

class MaskPanel : public QWidget {
    Q_OBJECT
  public:
    MaskPanel(Workbench& workbench, QWidget* parent = nullptr);

    MaskEditorPresenter& editor() { return *editor_; }
    MaskDrawTool& drawTool() { return *draw_; }
    QTableWidget* labelTable() const { return table_; }
    // The partition's Minimum and Maximum fields (q in Å⁻¹; the default follows the image and
    // geometry).
    QDoubleSpinBox* rangeMinimum() const { return binMin_; }
    QDoubleSpinBox* rangeMaximum() const { return binMax_; }
    QTabWidget* tabs() const { return tabs_; }
    void showTab(const QString& title);

  private:
    QWidget* buildGeometryTab();
    QWidget* buildPartitionTab();
    QWidget* buildToolsTab();
    QWidget* buildToolButtons();
    QWidget* buildThresholdRow();
    QWidget* buildEditButtons();
    QWidget* buildShapeList();
    QWidget* buildFilesTab();
    void connectEditor();
    void showGeometry();
    void applyGeometry();
    void suggestRange();
    mask::BinAxis binAxis() const;
    void showBounds(mask::BinAxis axis, double low, double high);
    void showPartitionRange();
    void applyPartition();
    void applySeedRings();
    void applyThreshold();
    void refreshTable();
    void refreshShapes();
    void refreshSummary();
    void fileAction(const QString& what, bool save, const QString& filter,
                    const std::function<void(MaskEditorPresenter&, const QString&)>& action);
    // Runs an action; an error goes to the Log and the status bar.
    bool tryRun(const QString& what, const std::function<void()>& action);

    Workbench& wb_;
    MaskEditorPresenter* editor_ = nullptr;
    MaskWorkbenchLink* link_ = nullptr;
    MaskDrawTool* draw_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QDoubleSpinBox *beamX_ = nullptr, *beamY_ = nullptr, *distance_ = nullptr,
                   *pixelSize_ = nullptr;
    QDoubleSpinBox *wavelength_ = nullptr, *energy_ = nullptr;
    QLabel* geometrySource_ = nullptr;
    QPushButton* fromFile_ = nullptr;
    QComboBox *axis_ = nullptr, *spacing_ = nullptr;
    QDoubleSpinBox *binMin_ = nullptr, *binMax_ = nullptr, *phi0_ = nullptr;
    QSpinBox *bins_ = nullptr, *sectors_ = nullptr;
    QButtonGroup *modeGroup_ = nullptr, *toolGroup_ = nullptr;
    QDoubleSpinBox* brushRadius_ = nullptr;
    QComboBox* thresholdMode_ = nullptr;
    QDoubleSpinBox *thresholdLow_ = nullptr, *thresholdHigh_ = nullptr;
    QListWidget* shapeList_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
};

} // namespace clscope::ui
