#include "ui/kit/wheel_guard.hpp"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QSlider>
#include <QWheelEvent>

namespace clscope::ui {

namespace {

bool isGuardedField(const QObject* object) {
    return qobject_cast<const QAbstractSpinBox*>(object) ||
           qobject_cast<const QComboBox*>(object) || qobject_cast<const QSlider*>(object);
}

QAbstractScrollArea* enclosingScrollArea(QWidget* widget) {
    for (QWidget* w = widget->parentWidget(); w; w = w->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) return area;
    return nullptr;
}

// The wheel event as the scroll area's viewport would have had it.
void scrollInstead(QWidget* field, const QWheelEvent& wheel) {
    QAbstractScrollArea* area = enclosingScrollArea(field);
    if (!area) return;
    QWidget* viewport = area->viewport();
    QWheelEvent forwarded(viewport->mapFromGlobal(wheel.globalPosition()), wheel.globalPosition(),
                          wheel.pixelDelta(), wheel.angleDelta(), wheel.buttons(),
                          wheel.modifiers(), wheel.phase(), wheel.inverted(), wheel.source(),
                          wheel.pointingDevice());
    QCoreApplication::sendEvent(viewport, &forwarded);
}

} // namespace

void WheelGuard::install() {
    static WheelGuard* guard = nullptr;
    if (guard || !qApp) return;
    guard = new WheelGuard(qApp);
    qApp->installEventFilter(guard);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    const QEvent::Type type = event->type();
    if ((type != QEvent::Wheel && type != QEvent::Polish) || !isGuardedField(watched)) return false;
    auto* field = static_cast<QWidget*>(watched);
    if (type == QEvent::Polish && field->focusPolicy() == Qt::WheelFocus)
        field->setFocusPolicy(Qt::StrongFocus);
    if (type != QEvent::Wheel || field->hasFocus()) return false;
    scrollInstead(field, *static_cast<QWheelEvent*>(event));
    return true;
}

} // namespace clscope::ui
