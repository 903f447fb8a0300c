#include "ui/results/title_label.hpp"

#include <QLabel>

namespace clscope::ui {

QLabel* wrappedLabel(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignHCenter);
    return label;
}

} // namespace clscope::ui
