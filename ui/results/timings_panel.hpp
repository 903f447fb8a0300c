// The Timings panel: a table of every run's labelled timings (count, min, median, max) and a
// bar chart of the medians, a bar per run (algorithm, variant and device) stacked from its
// kernels, copies and fills, and the rest of its host wall (the latest runs that fit the
// chart's height); CSV export.
#pragma once
#include "ui/results/timings_table.hpp"

#include <QWidget>

class QCustomPlot;
class QTableWidget;

namespace clscope::ui {

class TimingsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit TimingsPanel(QWidget* parent = nullptr);

    void addRun(const RunTimings& timings);
    void clear();
    const TimingsTable& table() const { return table_; }
    QCustomPlot* chart() const { return chart_; }
    QTableWidget* tableWidget() const { return tableWidget_; }
    void exportCsv(const QString& path) const;

  protected:
    // The chart's resizes: fewer or more runs as its height allows, legend columns as wide.
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void refresh();
    void refreshChart(const std::vector<TimingRow>& rows);
    void drawRuns(const std::vector<TimingRow>& rows, const std::vector<int>& runs);
    TimingsTable table_;
    QTableWidget* tableWidget_ = nullptr;
    QCustomPlot* chart_ = nullptr;
};

} // namespace clscope::ui
