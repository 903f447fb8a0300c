// The XPCS "Average" result tab (issue 54 item 1; DESIGN.md §4 `average`, §5 "Averaging"):
// correlate results picked as files or a folder, each run's g2 of one bin and intensity against
// time, its verdict (kept, or rejected with the rule and its value), the weights and rules as
// a parameter form, and the average — all through core/xpcs/average_file.hpp, the code of
// clscope-cli average: reading and averaging off the GUI thread, Save through writeAverage
// (atomic, never over an input).
#pragma once
#include "core/xpcs/average_file.hpp"

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

class QCustomPlot;
class QLabel;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableWidget;

namespace clscope::ui {

class ParamForm;

class XpcsAverageView : public QWidget {
    Q_OBJECT
  public:
    explicit XpcsAverageView(QWidget* parent = nullptr);
    ~XpcsAverageView() override;

    // Reads the files (after those loaded) off the GUI thread, then averages; a file that is
    // not a correlate result with sums is left out, said in the status line.
    void addFiles(const QStringList& files);
    // Every .h5, .hdf5 and .nxs file of the folder, sorted by name.
    void addFolder(const QString& folder);
    // The file the Data browser shows (openFile's answer, "" when none): "Add open file".
    void setOpenFile(std::function<QString()> openFile) { openFile_ = std::move(openFile); }
    void addOpenFile();
    void clear();
    // Averages the loaded runs with the form's weights and rules, off the GUI thread.
    void runAverage();
    // Writes the average through xpcs::writeAverage; the reason when it cannot (empty: saved).
    QString save(const QString& path);
    bool busy() const { return watcher_ != nullptr; }

    const std::vector<xpcs::AverageRun>& runs() const { return *runs_; }
    const std::optional<xpcs::AverageOutcome>& outcome() const { return outcome_; }
    ParamForm* form() const { return form_; }
    QTableWidget* table() const { return table_; }
    QSpinBox* binBox() const { return bin_; }
    QLabel* status() const { return status_; }
    QCustomPlot* g2Plot() const { return g2Plot_; }
    QCustomPlot* intensityPlot() const { return intensityPlot_; }

  signals:
    void loaded();   // files read (the table lists them)
    void averaged(); // an average ran (verdicts and the average shown, or why not in status)

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    using Work = std::function<void()>; // what runs on the GUI thread when the job is done
    QWidget* buildButtons();
    QWidget* buildLeft();
    QWidget* buildPlots();
    void start(std::function<Work()> job);
    void finished();
    void loadDone(std::vector<xpcs::AverageRun> runs, const QString& skipped);
    void fillTable();
    void refreshPlots();
    void setStatus(const QString& text, bool error = false);
    void chooseFiles();
    void chooseFolder();
    void chooseSave();

    std::shared_ptr<const std::vector<xpcs::AverageRun>> runs_;
    std::function<QString()> openFile_;
    std::optional<xpcs::AverageOutcome> outcome_;
    QStringList pendingFiles_;
    bool pendingAverage_ = false;
    QFutureWatcher<Work>* watcher_ = nullptr;
    QSplitter* split_ = nullptr;
    bool sized_ = false; // the splitter set once, when first shown
    ParamForm* form_ = nullptr;
    QTableWidget* table_ = nullptr;
    QSpinBox* bin_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* save_ = nullptr;
    QCustomPlot* g2Plot_ = nullptr;
    QCustomPlot* intensityPlot_ = nullptr;
};

} // namespace clscope::ui
