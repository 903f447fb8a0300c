// The Results panel: one tab per result view (plots, tables). An algorithm adds a ResultTab
// with what Export plot and Export results need. Tabs are namespaced by algorithm: a tab is
// replaced or removed by (algorithm, title), so no algorithm touches another's tabs. Tabs are
// bound to their input: markStale() suffixes their titles with "(stale)", shows a banner, and
// Export refuses them. Each tab carries the clscope-cli command line that reproduces it: its
// tooltip, its context menu's "Copy command line", and the "command_line" attribute of the
// HDF5 export.
#pragma once
#include <QString>
#include <QWidget>
#include <functional>
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
    QString commandLine; // clscope-cli ... that reproduces it ("#...": why none does)
};

class ResultsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ResultsPanel(QWidget* parent = nullptr);

    void addTab(ResultTab tab);
    void removeTab(const QString& algorithm, const QString& title);
    void removeTabs(const QString& algorithm); // every tab of one algorithm
    void clear();
    // Mark one algorithm's tabs (every tab when empty) as computed from an input that changed.
    void markStale(const QString& algorithm = {});
    bool hasStale() const;
    int count() const { return static_cast<int>(tabs_.size()); }
    const std::vector<ResultTab>& tabs() const { return tabs_; }
    // The tab shown, or nullptr when there is none.
    const ResultTab* currentTab() const;
    QTabWidget* tabWidget() const { return tabWidget_; }
    // The context menu of the tab at index (Copy command line); the caller owns it.
    QMenu* tabMenu(int index, QWidget* parent) const;

    // All tabs' HDF5 writers into one file; the current tab's CSV. UsageError when a tab that
    // would be exported is stale.
    void exportHdf5(const QString& path) const;
    void exportCsv(const QString& path) const;

  signals:
    void tabsChanged();

  private:
    const ResultTab* tabAt(int index) const;
    QTabWidget* tabWidget_ = nullptr;
    QLabel* emptyHint_ = nullptr;
    QLabel* staleBanner_ = nullptr;
    std::vector<ResultTab> tabs_;
};

} // namespace clscope::ui
