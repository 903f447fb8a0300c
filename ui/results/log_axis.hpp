// An axis switched between a linear and a logarithmic scale, with the ticker that suits each.
#pragma once

class QCPAxis;

namespace clscope::ui {

void setLogAxis(QCPAxis& axis, bool log);

} // namespace clscope::ui
