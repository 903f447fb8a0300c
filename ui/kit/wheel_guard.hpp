// No accidental edits: the mouse wheel over a spin box, a combo box or a slider that does not
// have the keyboard focus scrolls the panel around it (the nearest scroll area; nothing when
// there is none) instead of changing the value. A click or Tab gives the field focus, and the
// wheel then edits it. Such fields get Qt::StrongFocus (the wheel alone does not focus them).
#pragma once
#include <QObject>

namespace clscope::ui {

class WheelGuard : public QObject {
    Q_OBJECT
  public:
    // Installs the one guard on the application (again: nothing).
    static void install();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    using QObject::QObject;
};

} // namespace clscope::ui
