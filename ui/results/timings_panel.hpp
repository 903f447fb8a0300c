// The Timings panel: a table of every run's labelled timings (count, min, median, max) and a
// bar chart of the medians, grouped by algorithm, variant and device; CSV export.
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

  private:
    void refresh();
    void refreshChart(const std::vector<TimingRow>& rows);
    TimingsTable table_;
    QTableWidget* tableWidget_ = nullptr;
    QCustomPlot* chart_ = nullptr;
};

} // namespace clscope::ui
