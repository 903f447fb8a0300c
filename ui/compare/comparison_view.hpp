// The Compare dock: the variant × device grid of one algorithm in the style of pyFAI's method
// picker (a checkbox per cell; cells a device cannot run are greyed with the reason as
// tooltip), Run (Ctrl+R) and Cancel (Esc) with a progress bar and a "cancelling…" state, the
// results table (times, speed-up, deviation, pass/fail), a chart of kernel time per label
// (grouped horizontal bars), the algorithm's difference view of two chosen runs, and Export
// CSV / HDF5. The presenter (comparison_presenter.hpp) does the work.
#pragma once
#include "ui/compare/comparison_presenter.hpp"

#include <QPointer>
#include <QWidget>
#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QTimer;
class QVBoxLayout;

namespace clscope::ui {

struct AlgorithmPanelSpec;
class Workbench;

class ComparisonView : public QWidget {
    Q_OBJECT
  public:
    explicit ComparisonView(Workbench& workbench, QWidget* parent = nullptr);

    // The algorithm compared (one with a comparisonInput in its panel spec).
    void setAlgorithm(const std::string& algorithm);
    ComparisonPresenter* presenter() const { return presenter_.get(); }
    // Build the input from the panel's current choices, then run the checked cells.
    bool run();
    void cancel();
    // Take the input now (so that the grid knows what the input allows), without running.
    // Quiet: a failure goes to the input line only, not to the status and the Log.
    bool refreshInput(bool quiet = false);
    // The difference view of rows a and b (indices into presenter()->rows()).
    void showDifference(int a, int b);

    QTableWidget* grid() const { return grid_; }
    QTableWidget* resultsTable() const { return results_; }
    QLabel* rowDetails() const { return details_; }
    QCustomPlot* chart() const { return chart_; }
    QPushButton* runButton() const { return runButton_; }
    QPushButton* cancelButton() const { return cancelButton_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* staleBanner() const { return stale_; }
    QWidget* differenceWidget() const { return difference_; }
    // Tabs "Difference" (the algorithm's difference view with the run choosers) and "Kernel
    // time per label" (the chart) under the results table.
    QTabWidget* lowerTabs() const { return lowerTabs_; }

  signals:
    void runFinished(bool completed);

  protected:
    // Shown with its input outdated: the grid is refreshed (inputChanged()).
    void showEvent(QShowEvent* event) override;

  private:
    // The panel's parameters, the file, a role or the labels changed: the rows are stale, and
    // the grid takes the new input (what each cell can run) shortly after, while it is shown.
    void inputChanged();
    QWidget* buildGridSide();
    QWidget* buildResultsSide();
    void keepResultsReadable();
    void fillGrid();
    void onRowAdded(int row);
    void onFinished(bool completed);
    void refreshResults();
    void showRowDetails(int row);
    void refreshChart();
    void refreshDifferenceChoices();
    void exportAs(bool hdf5);
    const AlgorithmPanelSpec* spec() const;
    // The algorithm of the panel in front, where it has a comparison and none runs.
    void followPanel(const QString& algorithm);

    Workbench& wb_;
    std::unique_ptr<ComparisonPresenter> presenter_;
    QComboBox* algorithmBox_ = nullptr;
    QLabel* inputInfo_ = nullptr;
    QTableWidget* grid_ = nullptr;
    QPushButton *runButton_ = nullptr, *cancelButton_ = nullptr, *checkAll_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* stale_ = nullptr;
    QTableWidget* results_ = nullptr;
    QLabel* details_ = nullptr; // the chosen row's result in full
    QCustomPlot* chart_ = nullptr;
    QTabWidget* lowerTabs_ = nullptr;
    QComboBox *diffA_ = nullptr, *diffB_ = nullptr;
    QVBoxLayout* differenceLayout_ = nullptr;
    QPointer<QWidget> difference_;
    QTimer* gridTimer_ = nullptr; // coalesces inputChanged() into one refreshInput(true)
    bool inputOutdated_ = true;
};

} // namespace clscope::ui
