// What the Azint result views share: their row of controls (then a stretch), the run's title
// wrapped above the plot, and the plot (at least 240 × 180) under them; the caller adds the plot
// to `layout` once it has set it up.
#pragma once
#include <QString>

class QCustomPlot;
class QHBoxLayout;
class QVBoxLayout;
class QWidget;

namespace clscope::ui {

QCustomPlot* controlsTitleAndPlot(QVBoxLayout& layout, QHBoxLayout* controls, const QString& title,
                                  QWidget* parent);

} // namespace clscope::ui
