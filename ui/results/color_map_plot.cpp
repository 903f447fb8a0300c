#include "ui/results/color_map_plot.hpp"

#include "ui/image/colormaps.hpp"

#include <qcustomplot.h>

namespace clscope::ui {

QCPColorMap* addColorMapWithBar(QCustomPlot& plot, const QString& barLabel, int row) {
    auto* map = new QCPColorMap(plot.xAxis, plot.yAxis);
    map->setInterpolate(false);
    auto* scale = new QCPColorScale(&plot);
    plot.plotLayout()->addElement(row, 1, scale);
    scale->axis()->setLabel(barLabel);
    map->setColorScale(scale); // the map takes the scale's gradient: set it after
    map->setGradient(colormapGradient("viridis", QColor(200, 200, 200)));
    auto* group = new QCPMarginGroup(&plot);
    plot.axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    return map;
}

} // namespace clscope::ui
