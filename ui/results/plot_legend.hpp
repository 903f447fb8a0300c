// A plot's legend outside its data: in a row of its own under the axis rect, filled by columns,
// as many columns as the plot's width gives its widest entry (bar charts, the xpcs g2 plot).
#pragma once

class QCustomPlot;
class QString;
class QWidget;

namespace clscope::ui {

// Moves the legend into a row under the axis rect (once per plot; later calls do nothing),
// compact entries, no border, and shows it.
void placeLegendBelow(QCustomPlot& plot);

// As many legend columns as the plot's width allows for its widest entry, so no name is cut;
// call after the plottables are named and when the plot is resized.
void fitLegendColumns(QCustomPlot& plot);

// A plot of at least 300×220 with `title` in a row above its axes and the legend below them
// (the live view's plots of the series so far).
QCustomPlot* titledPlotLegendBelow(QWidget* parent, const QString& title);

} // namespace clscope::ui
