// A colour map on a plot with its colour bar beside it, in clscope's viridis (empty cells grey),
// the bar's height that of the axis rect (the result tabs' maps: azint's waterfall and cake, the
// spots grid scan).
#pragma once
#include <QString>

class QCPColorMap;
class QCustomPlot;

namespace clscope::ui {

// The map on plot's axes; its colour scale (map->colorScale()) in column 1 of `row`.
QCPColorMap* addColorMapWithBar(QCustomPlot& plot, const QString& barLabel, int row = 0);

} // namespace clscope::ui
