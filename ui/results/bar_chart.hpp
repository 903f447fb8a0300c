// Grouped horizontal bars that stay readable at a dock's size: one row of bars per category
// (its name as the y tick label, first category on top), one colour per series, only the
// series a category has take a slot (no gaps), and the legend below the plot, not over bars.
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

} // namespace clscope::ui
