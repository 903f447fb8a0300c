// A result view's title (the run behind it) above its plot: wrapped to the view's width rather
// than cut at the plot's edges, selectable.
#pragma once
#include <QString>

class QLabel;
class QWidget;

namespace clscope::ui {

QLabel* wrappedLabel(const QString& text, QWidget* parent);

} // namespace clscope::ui
