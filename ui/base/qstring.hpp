// The one std::string -> QString conversion of the GUI (UTF-8), for every ui/ folder: the
// lowest folder of ui/, it includes nothing of ui/.
#pragma once
#include <QString>
#include <string>

namespace clscope::ui {

inline QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace clscope::ui
