#include "ui/kit/scrollable.hpp"

#include <QScrollArea>

namespace clscope::ui {

QWidget* scrollable(QWidget* panel) {
    auto* area = new QScrollArea;
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

} // namespace clscope::ui
