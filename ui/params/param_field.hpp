// One parameter's editor, chosen by its ParamSpec alone: Int and Double spin boxes with the
// spec's range (a line edit when the parameter may be unset), Bool a check box, Choice a
// combo, Text and IntList a line edit read as the command line reads the flag. The label
// carries the unit, the tooltip the help, the JSON name and the CLI flag.
#pragma once
#include "core/params.hpp"

#include <QString>
#include <functional>

class QWidget;

namespace clscope::ui {

struct ParamField {
    ParamSpec spec;
    QWidget* widget = nullptr;
    // The value on screen as --params takes it; UsageError when the text is not one.
    std::function<nlohmann::json()> value;
    // Shows a value (signals blocked).
    std::function<void(const nlohmann::json&)> show;
};

// The editor of one spec; `edited` is called after each finished edit.
ParamField makeParamField(const ParamSpec& spec, QWidget* parent, std::function<void()> edited);

// "σ strong (px)": the spec's label (or name) and unit.
QString paramLabel(const ParamSpec& spec);

// The tooltip: the help, then the JSON name and the CLI flag.
QString paramToolTip(const ParamSpec& spec);

} // namespace clscope::ui
