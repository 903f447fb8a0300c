// File ▸ Open stream…: the host and port of a detector's stream (DECTRIS Stream V2, ZeroMQ),
// remembered between sessions (QSettings "stream/host", "stream/port").
#pragma once
#include <QString>

class QWidget;

namespace clscope::ui {

// "tcp://HOST:PORT", or empty when cancelled.
QString askStreamEndpoint(QWidget* parent);

} // namespace clscope::ui
