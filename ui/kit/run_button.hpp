// The Run button of an algorithm panel: "Run (Ctrl+R)" with its tooltip, and Ctrl+R scoped to the
// panel (the Compare dock has its own Ctrl+R), both calling run.
#pragma once
#include <QString>
#include <functional>

class QPushButton;
class QWidget;

namespace clscope::ui {

QPushButton* makeRunButton(QWidget* panel, QWidget* parent, const QString& tip,
                           std::function<void()> run);

} // namespace clscope::ui
