#include "ui/azint/azint_plot_frame.hpp"

#include "ui/results/title_label.hpp"

#include <QHBoxLayout>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace clscope::ui {

QCustomPlot* controlsTitleAndPlot(QVBoxLayout& layout, QHBoxLayout* controls, const QString& title,
                                  QWidget* parent) {
    controls->addStretch(1);
    layout.addLayout(controls);
    layout.addWidget(wrappedLabel(title, parent));
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumSize(240, 180);
    return plot;
}

} // namespace clscope::ui
