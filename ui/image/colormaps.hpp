// clscope's own colour gradients for QCustomPlot (viridis, magma, inferno, cividis, gray),
// built from ten evenly spaced stops of the published maps.
#pragma once
#include <QColor>
#include <QStringList>
#include <qcustomplot.h>

namespace clscope::ui {

QStringList colormapNames();
// The named gradient; unknown names give viridis. NaN pixels take nanColor.
QCPColorGradient colormapGradient(const QString& name,
                                  const QColor& nanColor = QColor(255, 0, 255));
// A qualitative palette for overlay labels (label L takes colour (L-1) mod size).
const QVector<QColor>& labelPalette();
// n colours that never repeat: labelPalette() while it is large enough, else n hues spread
// evenly round the circle with the lightness alternating over three levels.
QVector<QColor> distinctPalette(int n);

} // namespace clscope::ui
