// Form-like panels (the mask editor and its tabs, algorithm panels) and result views scroll
// where they are shown rather than making their dock, or the window, taller (or wider) than
// the screen.
#pragma once

class QWidget;

namespace clscope::ui {

enum class Scroll { Down, DownAndAcross };

// `panel` inside a frameless scroll area that resizes it to the area, no smaller than its
// minimum. Down: no horizontal bar (a form, as wide as the area); DownAndAcross: a horizontal
// bar too where the area is narrower than the panel's minimum (a result view).
QWidget* scrollable(QWidget* panel, Scroll scroll = Scroll::Down);

} // namespace clscope::ui
