// Parameters in one line for people, as their form labels them: "σ strong 3, min spot size 3 px".
#pragma once
#include "core/params.hpp"

#include <QString>
#include <span>

namespace clscope::ui {

// The named parameters of `params` (those it lacks left out), each "LABEL VALUE[ UNIT]".
QString paramsText(const ParamSet& params, std::span<const char* const> names);

} // namespace clscope::ui
