#include "ui/lab/lab_history.hpp"

#include "core/atomic_file.hpp"
#include "core/json_parse.hpp"
#include "gpu/variant/user_variants.hpp"

#include <ctime>
#include <fstream>
#include <sstream>

namespace clscope::ui {

namespace {

const char* const csvColumns[] = {"date",          "algorithm",      "from",     "label",
                                  "variant",       "device",         "size",     "result",
                                  "max_deviation", "min_ms",         "p20_ms",   "median_ms",
                                  "p80_ms",        "wall_median_ms", "tunables", "source_sha256"};

std::string nowUtc() {
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return date;
}

// A CSV field: quoted when it holds a comma, a quote or a newline.
std::string csvField(const nlohmann::json& value) {
    std::string text = value.is_string() ? value.get<std::string>()
                       : value.is_null() ? std::string()
                                         : jsonText(value);
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

} // namespace

std::string tunablesText(const nlohmann::json& tunables) {
    std::string text;
    for (auto it = tunables.begin(); it != tunables.end(); ++it)
        text += (text.empty() ? "" : " ") + it.key() + "=" +
                (it->is_string() ? it->get<std::string>() : it->dump());
    return text;
}

LabHistory::LabHistory(std::filesystem::path file) : file_(std::move(file)) {
    std::ifstream in(file_);
    if (!in) return;
    std::stringstream text;
    text << in.rdbuf();
    const auto parsed = parseJsonQuietly(text.str());
    if (parsed.is_array()) entries_ = parsed;
}

std::filesystem::path LabHistory::defaultFile() {
    return userVariantsRoot() / "lab_history.json";
}

std::string LabHistory::resultOf(const nlohmann::json& row) {
    if (row.value("ran", false)) return row.value("check", "");
    const std::string note = row.value("note", "");
    return note.substr(0, note.find(':'));
}

nlohmann::json LabHistory::record(const nlohmann::json& rows, const std::string& from) {
    const std::string date = nowUtc();
    for (nlohmann::json entry : rows) {
        entry["date"] = date, entry["from"] = from, entry["result"] = resultOf(entry);
        entries_.push_back(std::move(entry));
    }
    std::filesystem::create_directories(file_.parent_path());
    writeFileAtomically(file_.string(), jsonText(entries_, 1) + "\n");
    return entries_;
}

void LabHistory::exportJson(const std::filesystem::path& path) const {
    writeFileAtomically(path.string(), jsonText(entries_, 2) + "\n");
}

void LabHistory::exportCsv(const std::filesystem::path& path) const {
    std::string out;
    for (const char* column : csvColumns)
        out += std::string(out.empty() ? "" : ",") + column;
    out += "\n";
    for (const nlohmann::json& e : entries_) {
        std::string line;
        for (const char* column : csvColumns) {
            const bool tunables = std::string(column) == "tunables";
            const nlohmann::json value =
                tunables ? nlohmann::json(tunablesText(e.value(column, nlohmann::json::object())))
                         : e.value(column, nlohmann::json());
            line += (column == csvColumns[0] ? "" : ",") + csvField(value);
        }
        out += line + "\n";
    }
    writeFileAtomically(path.string(), out);
}

} // namespace clscope::ui
