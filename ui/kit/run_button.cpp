#include "ui/kit/run_button.hpp"

#include <QKeySequence>
#include <QPushButton>
#include <QShortcut>

namespace clscope::ui {

QPushButton* makeRunButton(QWidget* panel, QWidget* parent, const QString& tip,
                           std::function<void()> run) {
    auto* button = new QPushButton("Run (Ctrl+R)", parent);
    if (!tip.isEmpty()) button->setToolTip(tip);
    auto* shortcut = new QShortcut(QKeySequence("Ctrl+R"), panel);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(shortcut, &QShortcut::activated, panel, run);
    QObject::connect(button, &QPushButton::clicked, panel, run);
    return button;
}

} // namespace clscope::ui
