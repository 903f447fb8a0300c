// Horizontal bars that stay readable at a dock's size: one row per category (its name as the y
// tick label, first category on top), one colour per series, the legend below the plot, not
// over bars. Grouped: each series a bar of its own in the row, only the series a category has
// take a slot (no gaps). Stacked: one bar a row, the series end to end (parts of one whole,
// e.g. the steps of a run), so a row needs only a line's height.
#pragma once
#include <QString>
#include <QStringList>
#include <vector>

class QCustomPlot;

namespace clscope::ui {

struct BarSeries {
    QString name;
    std::vector<double> values; // one per category; NaN or <= 0: no bar
};

void drawGroupedBars(QCustomPlot& plot, const QStringList& categories,
                     const std::vector<BarSeries>& series, const QString& valueLabel);
void drawStackedBars(QCustomPlot& plot, const QStringList& categories,
                     const std::vector<BarSeries>& series, const QString& valueLabel);

} // namespace clscope::ui
