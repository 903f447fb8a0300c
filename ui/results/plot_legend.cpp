#include "ui/results/plot_legend.hpp"

#include <algorithm>
#include <qcustomplot.h>

namespace clscope::ui {

void placeLegendBelow(QCustomPlot& plot) {
    if (plot.legend->layout() != plot.axisRect()->insetLayout()) return;
    plot.axisRect()->insetLayout()->take(plot.legend);
    plot.plotLayout()->addElement(plot.plotLayout()->rowCount(), 0, plot.legend);
    plot.plotLayout()->setRowStretchFactor(plot.plotLayout()->rowCount() - 1, 0.001);
    plot.legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot.legend->setBorderPen(Qt::NoPen);
    plot.legend->setMargins(QMargins(4, 2, 4, 2));
    // Compact entries: many of them still leave the data most of a docked plot's height.
    QFont font = plot.legend->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    plot.legend->setFont(font);
    plot.legend->setIconSize(14, 8);
    plot.legend->setRowSpacing(0);
    plot.legend->setVisible(true);
}

void fitLegendColumns(QCustomPlot& plot) {
    const QFontMetrics metrics(plot.legend->font());
    int widest = 1;
    for (int i = 0; i < plot.legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.legend->item(i)))
            widest = std::max(widest, metrics.horizontalAdvance(item->plottable()->name()));
    const int columns = std::max(1, (plot.width() - 20) / (widest + 45));
    // Its rows keep a line's height each: a short plot gives the data less room rather than
    // drawing the entries over each other.
    const int rows = (plot.legend->itemCount() + columns - 1) / columns;
    const QMargins m = plot.legend->margins();
    plot.legend->setMinimumSize(0, rows * (metrics.height() + 2) + m.top() + m.bottom());
    if (columns == plot.legend->wrap()) return;
    plot.legend->setWrap(columns);
    plot.legend->setFillOrder(plot.legend->fillOrder(), true); // the entries placed again
}

QCustomPlot* titledPlotLegendBelow(QWidget* parent, const QString& title) {
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumSize(300, 220);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title));
    placeLegendBelow(*plot);
    return plot;
}

} // namespace clscope::ui
