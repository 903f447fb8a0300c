// The kernel lab window (View ▸ Kernel lab, Ctrl+L): pick an algorithm, a variant (built-in
// or user:NAME) and its program, Fork it into the editor (the program as built: tunable lines
// and source), edit, and Save & run (Ctrl+S): `clscope-cli lab` rebuilds, checks against the
// reference and times the fork beside its base in the background (LabRun), the build log lists
// errors and warnings at their lines (click: the editor goes there), Kernels lists each built
// kernel's OpenCL figures and Compiled output shows what the driver made (PTX on NVIDIA), the
// table shows one row per run or sweep value, Keep best saves the fastest passing fork row as a
// user variant, and the history keeps every row. A kernel that never finishes is stopped by the
// CLI's
// --kernel-timeout; the window and the edits stay.
#pragma once
#include "ui/lab/lab_outcome.hpp"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace clscope::ui {

class BuildLogList;
class CodeEditor;
class CompiledOutputView;
class LabKernelsTable;
class LabRooflinePlot;
class LabHistoryView;
class LabRowsTable;
class LabRun;

class LabWindow : public QWidget {
    Q_OBJECT
  public:
    explicit LabWindow(QWidget* parent = nullptr);

    // Picks the algorithm and variant (and program, "" its only one); false when not offered.
    bool choose(const QString& algorithm, const QString& variant, const QString& program = {});
    // Fork: the chosen program as built into the editor; "" or why not.
    QString fork();
    // Save & run: the editor's program checked and timed in the background; "" when started,
    // else why not. runFinished() follows.
    QString saveAndRun();
    bool running() const;
    // Keep best: the fastest passing fork row of the last run saved as user:NAME; the saved
    // .cl path, or "" with the reason in *error.
    QString keepBest(const QString& name, QString* error);

    void setDevice(const QString& spec);
    void setRepeat(int repeat);
    void setKernelTimeout(double seconds);
    void setSweep(const QString& sweep);
    void setColdCache(bool cold);
    void setParams(const QString& json); // the run's --params

    CodeEditor* editor() const { return editor_; }
    BuildLogList* buildLog() const { return buildLog_; }
    LabRowsTable* rowsTable() const { return rows_; }
    QLabel* rowDetails() const { return rowDetails_; }
    LabHistoryView* historyView() const { return history_; }
    LabKernelsTable* kernelsTable() const { return kernels_; }
    CompiledOutputView* compiledOutput() const { return compiled_; }
    LabRooflinePlot* rooflinePlot() const { return roofline_; }
    LabRun* labRun() const { return run_; }
    // The Cancel button's work: the run stopped, the window ready for the next.
    void cancelRun();
    const LabOutcome& outcome() const;
    QString status() const;

  signals:
    void runFinished();
    // A user variant was saved (the panels' variant pickers list it from their next refill).
    void userVariantSaved(const QString& algorithm, const QString& id);

  private:
    void fitScreen();
    QWidget* buildControls();
    QWidget* buildRunControls();
    QWidget* buildResults();
    QWidget* buildSide();
    void fillAlgorithms();
    void fillVariants();
    void fillPrograms();
    void fillDevices();
    LabOptions options() const;
    void showOutcome();
    void showBuildLog(const LabOutcome& outcome);
    void setStatus(const QString& text);

    QComboBox *algorithm_, *variant_, *program_, *device_, *size_;
    QSpinBox* repeat_;
    QDoubleSpinBox* timeout_;
    QCheckBox* coldCache_;
    QLineEdit *sweep_, *saveName_, *params_;
    QPushButton *forkButton_, *runButton_, *cancelButton_, *keepButton_;
    QLabel* status_;
    CodeEditor* editor_;
    BuildLogList* buildLog_;
    LabRowsTable* rows_;
    QLabel* rowDetails_ = nullptr; // the chosen row's check in full
    LabHistoryView* history_;
    LabKernelsTable* kernels_;
    CompiledOutputView* compiled_;
    LabRooflinePlot* roofline_;
    LabRun* run_;
    QTimer* ticker_;
};

} // namespace clscope::ui
