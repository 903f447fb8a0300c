#include "ui/results/log_axis.hpp"

#include <qcustomplot.h>

namespace clscope::ui {

void setLogAxis(QCPAxis& axis, bool log) {
    axis.setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        axis.setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        axis.setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
}

} // namespace clscope::ui
