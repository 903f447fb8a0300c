#include "ui/results/provenance.hpp"
#include "ui/base/qstring.hpp"

#include "core/hdf5.hpp"
#include "core/json_parse.hpp"
#include "gpu/algorithm.hpp"

#include <QImage>
#include <nlohmann/json.hpp>

namespace clscope::ui {

namespace {

QString isoUtc(const QDateTime& time) {
    return time.toUTC().toString(Qt::ISODate);
}

// The input's file as the parameters JSON records it ("input": {"file": ...}).
QString inputFile(const std::string& parametersJson) {
    const auto j = parseJsonQuietly(parametersJson);
    if (j.is_discarded() || !j.is_object() || !j.contains("input")) return {};
    const auto& input = j["input"];
    return input.is_object() && input.contains("file") && input["file"].is_string()
               ? q(input["file"].get<std::string>())
               : QString();
}

} // namespace

RunProvenance runProvenance(const RunInfo& info) {
    RunProvenance p;
    p.device = q(info.device + (info.deviceName.empty() ? "" : " (" + info.deviceName + ")"));
    p.variant = q(info.variant);
    p.input = inputFile(info.parametersJson);
    p.parametersJson = q(info.parametersJson);
    return p;
}

ProvenanceFields provenanceFields(const QString& result, const RunProvenance& run,
                                  const QString& commandLine) {
    ProvenanceFields out{{"clscope_version", q(clscopeVersion())},
                         {"exported", isoUtc(QDateTime::currentDateTimeUtc())}};
    const auto add = [&out](const char* key, const QString& value) {
        if (!value.isEmpty()) out.emplace_back(key, value);
    };
    add("result", result);
    add("computed", run.computed.isValid() ? isoUtc(run.computed) : QString());
    add("device", run.device);
    add("variant", run.variant);
    add("input", run.input);
    add("parameters", run.parametersJson);
    add("command_line", commandLine);
    return out;
}

std::string csvProvenanceHeader(const ProvenanceFields& fields) {
    QString out;
    for (const auto& [key, value] : fields) {
        QString text = value;
        out += "# " + key + ": " + text.replace('\n', "\n#   ") + '\n';
    }
    return out.toStdString();
}

void writeProvenanceAttributes(H5Writer& out, const ProvenanceFields& fields) {
    for (const auto& [key, value] : fields)
        out.setAttribute("/", key.toStdString(), value.toStdString());
}

void setImageProvenance(QImage& image, const ProvenanceFields& fields) {
    for (const auto& [key, value] : fields)
        image.setText(key, value);
}

QString provenanceText(const ProvenanceFields& fields) {
    QStringList lines;
    for (const auto& [key, value] : fields)
        lines << key + ": " + value;
    return lines.join('\n');
}

} // namespace clscope::ui
