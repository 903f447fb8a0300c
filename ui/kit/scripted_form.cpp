#include "ui/kit/scripted_form.hpp"

#include "ui/kit/algorithm_panels.hpp"
#include "ui/params/param_form.hpp"

namespace clscope::ui {

nlohmann::json setFormFrom(ParamForm& form, const ScriptedSettings& settings,
                           const std::set<std::string>& heldWithoutField) {
    nlohmann::json others = nlohmann::json::object();
    for (const ParamSpec& spec : settings.params.specs()) {
        const nlohmann::json& value = settings.params.get(spec.name);
        if (form.field(spec.name) || heldWithoutField.count(spec.name))
            form.setValue(spec.name, value);
        else
            others[spec.name] = value;
    }
    return others;
}

} // namespace clscope::ui
