#include "ui/kit/panel_column.hpp"

#include <QLabel>
#include <QVBoxLayout>

namespace clscope::ui {

PanelColumn panelColumnWithInputLine(QWidget& panel) {
    auto* layout = new QVBoxLayout(&panel);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* info = new QLabel(&panel);
    info->setWordWrap(true);
    info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(info);
    return {layout, info};
}

} // namespace clscope::ui
