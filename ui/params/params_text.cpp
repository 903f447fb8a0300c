#include "ui/params/params_text.hpp"

#include <QStringList>

namespace clscope::ui {

namespace {

QString valueText(const nlohmann::json& v) {
    if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
    if (v.is_number()) return QString::number(v.get<double>(), 'g', 6);
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_null()) return "unset";
    QStringList items; // IntList
    for (const auto& item : v)
        items << valueText(item);
    return items.join(',');
}

} // namespace

QString paramsText(const ParamSet& params, std::span<const char* const> names) {
    QStringList parts;
    for (const char* name : names)
        for (const ParamSpec& spec : params.specs())
            if (spec.name == name) {
                QString part = QString::fromStdString(spec.label.empty() ? spec.name : spec.label) +
                               " " + valueText(params.get(spec.name));
                if (!spec.unit.empty()) part += " " + QString::fromStdString(spec.unit);
                parts << part;
            }
    return parts.join(", ");
}

} // namespace clscope::ui
