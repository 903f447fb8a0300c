// A panel's part of a scripted GUI run (`clscope IN.h5 --run ALGO …`, ui/app/scripted_run.hpp):
// its applyScripted sets its parameter form from the run's settings with setFormFrom.
#pragma once
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace clscope::ui {

class ParamForm;
struct ScriptedSettings;

// A panel's applyScripted: every parameter the form shows (or holds for a box of the panel's
// own, `heldWithoutField`) set from `settings.params`; the others (those the panel shows its own
// way) returned, name -> value. UsageError for a value the form refuses.
nlohmann::json setFormFrom(ParamForm& form, const ScriptedSettings& settings,
                           const std::set<std::string>& heldWithoutField = {});

} // namespace clscope::ui
