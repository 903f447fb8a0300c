// Form-like panels (the mask editor and its tabs, algorithm panels) scroll where they are
// shown rather than making their dock, or the window, taller than the screen.
#pragma once

class QWidget;

namespace clscope::ui {

// `panel` inside a frameless scroll area that resizes it to its width (no horizontal bar).
QWidget* scrollable(QWidget* panel);

} // namespace clscope::ui
