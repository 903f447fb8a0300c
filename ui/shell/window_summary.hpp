// What the window shows, as lines of text for scripts that check it (scripts/gui_walk):
// `clscope --screenshot OUT.png` prints them after "wrote OUT.png" when CLSCOPE_SCREENSHOT_SUMMARY
// is set. Names no algorithm: the open file, the current labels and where they come from, the
// image's overlays, the cursor readout at one point of the image, the result tabs.
#pragma once
#include <QStringList>

namespace clscope::ui {

class MainWindow;

// "file: PATH", "labels: N from ORIGIN", "overlays: A, B", "readout at (X, Y): TEXT",
// "result tabs: N: TITLE, TITLE" (readout: at three quarters of the width, half the height).
QStringList windowSummary(MainWindow& window);

} // namespace clscope::ui
