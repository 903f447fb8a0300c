// What the window shows, as lines of text for scripts that check it (scripts/gui_walk):
// `clscope --screenshot OUT.png` prints them after "wrote OUT.png" when CLSCOPE_SCREENSHOT_SUMMARY
// is set. Names no algorithm: the open file, the current labels and where they come from, the
// image's overlays, the cursor readout at one point of the image, the result tabs.
#pragma once
#include <QStringList>

namespace clscope::ui {

class MainWindow;

// "file: PATH", "labels: N from ORIGIN", "overlays: A, B (hidden)", "readout at (X, Y): TEXT",
// "pixel (X, Y) on the screen at (SX, SY)", "result tabs: N: TITLE, TITLE (stale)", "spin box:
// NAME = VALUE at (SX, SY)" (readout: at three quarters of the width, half the height; the screen
// point is where a cursor reads that pixel; the spin box: the first on the panel in front).
QStringList windowSummary(MainWindow& window);

// With CLSCOPE_WINDOW_LOG set (scripts/gui_walk drives the window with xdotool): "window: " lines
// on stdout, flushed, as the window changes: "demo finished: ok|failed", "job done: TITLE", "file
// opened", "labels changed", "panel OWNER active|inactive", each followed by the summary, and
// "readout under the cursor: TEXT" as the mouse moves over the image, "job started: TITLE" and
// "field changed: NAME = VALUE" (a panel's spin box) alone.
void logWindowChanges(MainWindow& window);

} // namespace clscope::ui
