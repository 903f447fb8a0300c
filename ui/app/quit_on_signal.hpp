// SIGTERM and SIGINT (a session's logout, `kill`, Ctrl+C in the terminal) quit clscope as File ▸
// Quit does: the main window is closed (it may ask about unsaved mask edits), then the event loop
// ends. The signal handler only writes a byte to a socket; the window is closed on the GUI thread.
#pragma once

class QWidget;

namespace clscope::ui {

// Installs the handlers; `window` must outlive the event loop.
void quitOnTerminationSignals(QWidget& window);

} // namespace clscope::ui
