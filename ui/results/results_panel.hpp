// The Results panel: one tab per result view (plots, tables). An algorithm adds a ResultTab
// with what Export plot and Export results need. Tabs are namespaced by algorithm: a tab is
// replaced or removed by (algorithm, title), so no algorithm touches another's tabs; the user
// closes any tab with its close button. Tabs are bound to their input: markStale() suffixes
// their titles with "(stale)" and shows a banner; Export refuses a stale tab, and only that
// one: the export is of the tab shown (or, for all fresh tabs, one file each, stale ones
// skipped). Each tab carries the clscope-cli command line that reproduces it (its tooltip, its
// context menu's "Copy command line") and the run's provenance; every export writes both
// (ui/results/provenance.hpp).
#pragma once
#include "ui/jobs/layout_export.hpp"
#include "ui/results/provenance.hpp"

#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <map>
#include <string>
#include <vector>

class QCustomPlot;
class QLabel;
class QMenu;
class QTabWidget;

namespace clscope {
class H5Writer;
}

namespace clscope::ui {

struct ResultTab {
    QString algorithm;           // owner, e.g. "xpcs"
    QString title;               // tab text; the owner's tab of the same title is replaced
    QWidget* widget = nullptr;   // the content (the panel takes ownership)
    QCustomPlot* plot = nullptr; // what Export plot saves (may be the widget itself)
    std::function<void(H5Writer&)> writeHdf5; // the DESIGN.md §3 layout of this result
    std::function<std::string()> csv;         // curves or table as CSV
    bool stale = false;                       // its input changed since it was computed
    QString commandLine{};      // clscope-cli ... that reproduces it ("#...": why none does)
    RunProvenance provenance{}; // the run behind it (computed: set by addTab when empty)
    LayoutExport layouts{};     // with writeHdf5: the result in its algorithm's other layouts
    QWidget* page = nullptr;    // what the tab shows: widget in a scroll area (set by addTab)
};

// What "export all fresh results" wrote and which stale tabs it left out.
struct ExportSummary {
    QStringList written; // file paths
    QStringList skipped; // "algorithm: title" of stale tabs and of tabs with nothing to write
};

class ResultsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ResultsPanel(QWidget* parent = nullptr);

    void addTab(ResultTab tab);
    void removeTab(const QString& algorithm, const QString& title);
    // Every tab of one algorithm; the title of the one in front is kept for showAfterRun.
    void removeTabs(const QString& algorithm);
    // After a re-run: bring forward the tab of algorithm that was in front when its tabs were
    // removed (the user's choice), else `fallback` (the run's main view).
    void showAfterRun(const QString& algorithm, QWidget* fallback);
    void clear();
    // Bring forward the tab whose content is (or holds) widget.
    void showTab(const QWidget* widget);
    // Mark one algorithm's tabs (every tab when empty) as computed from an input that changed.
    void markStale(const QString& algorithm = {});
    bool hasStale() const;
    int count() const { return static_cast<int>(tabs_.size()); }
    const std::vector<ResultTab>& tabs() const { return tabs_; }
    // The tab shown, or nullptr when there is none.
    const ResultTab* currentTab() const;
    QTabWidget* tabWidget() const { return tabWidget_; }
    // The context menu of the tab at index (Copy command line); the caller owns it. A line that
    // names inputs only this machine has (the mask editor's labels) is copied once they are
    // saved to a file the user chooses, and names that file.
    QMenu* tabMenu(int index, QWidget* parent) const;
    // The tab's command line naming inputsPath, to which it writes the inputs only this machine
    // has (ui/results/local_inputs.hpp); the line as it is when it names none.
    QString commandLineCarrying(int index, const QString& inputsPath) const;

    // The provenance an export of the tab writes.
    ProvenanceFields provenance(const ResultTab& tab) const;
    // Exports of the tab shown, with its provenance. HDF5: its result (the tab's writer, else
    // the writer of its algorithm's tab that holds the same result); CSV: its table or curves
    // under a '#' provenance header; PNG/PDF/JPG: its plot at its size on screen. exportShown
    // picks by the suffix. UsageError when the tab shown is stale or has no such export.
    void exportHdf5(const QString& path) const;
    void exportCsv(const QString& path) const;
    void exportPlot(const QString& path) const;
    void exportShown(const QString& path) const;
    // The result of the tab shown in another output layout of its algorithm (the layouts the
    // run offered: layoutsShown), with the clscope-cli command line that writes it; HDF5 or the
    // layout's own bytes. UsageError as above, or for a layout not offered.
    void exportShownAs(const QString& path, const std::string& layout) const;
    LayoutExport layoutsShown() const;
    // The layouts of the result just shown by `algorithm`'s panel, for its tabs with a writer.
    void setLayouts(const QString& algorithm, const LayoutExport& layouts);
    // One file per fresh tab into folder (HDF5 when it writes its result, else CSV, else PNG),
    // named "<algorithm>-<title>.<ext>"; stale tabs and tabs with nothing to write are skipped.
    ExportSummary exportAllFresh(const QString& folder) const;

  signals:
    void tabsChanged();

  private:
    const ResultTab* tabAt(int index) const;
    const ResultTab& shownFresh() const;
    void exportTab(const ResultTab& tab, const QString& path) const;
    void writeResult(const ResultTab& tab, const QString& path) const;
    // The tab whose writer writes tab's result (itself, else its algorithm's tab with one).
    const ResultTab& writerOf(const ResultTab& tab) const;
    QTabWidget* tabWidget_ = nullptr;
    QLabel* emptyHint_ = nullptr;
    QLabel* staleBanner_ = nullptr;
    std::vector<ResultTab> tabs_;
    std::map<QString, QString> shownBefore_; // algorithm -> title in front at removeTabs
};

} // namespace clscope::ui
