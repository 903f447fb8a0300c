#include "ui/base/scrollable.hpp"

#include <QScrollArea>

namespace clscope::ui {

QWidget* scrollable(QWidget* panel, Scroll scroll) {
    auto* area = new QScrollArea;
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    if (scroll == Scroll::Down) area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

} // namespace clscope::ui
