// The Results panel: one tab per result view (plots, tables). An algorithm adds a ResultTab
// with what Export plot and Export results need.
#pragma once
#include <QString>
#include <QWidget>
#include <functional>
#include <string>
#include <vector>

class QCustomPlot;
class QLabel;
class QTabWidget;

namespace clscope {
class H5Writer;
}

namespace clscope::ui {

struct ResultTab {
    QString title;                                    // tab text; a tab of the same title is replaced
    QWidget* widget = nullptr;                        // the content (the panel takes ownership)
    QCustomPlot* plot = nullptr;                      // what Export plot saves (may be the widget itself)
    std::function<void(H5Writer&)> writeHdf5;         // the DESIGN.md §3 layout of this result
    std::function<std::string()> csv;                 // curves or table as CSV
};

class ResultsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ResultsPanel(QWidget* parent = nullptr);

    void addTab(ResultTab tab);
    void removeTab(const QString& title);
    void clear();
    int count() const { return static_cast<int>(tabs_.size()); }
    const std::vector<ResultTab>& tabs() const { return tabs_; }
    // The tab shown, or nullptr when there is none.
    const ResultTab* currentTab() const;
    QTabWidget* tabWidget() const { return tabWidget_; }

    // All tabs' HDF5 writers into one file; the current tab's CSV.
    void exportHdf5(const QString& path) const;
    void exportCsv(const QString& path) const;

  signals:
    void tabsChanged();

  private:
    QTabWidget* tabWidget_ = nullptr;
    QLabel* emptyHint_ = nullptr;
    std::vector<ResultTab> tabs_;
};

} // namespace clscope::ui
