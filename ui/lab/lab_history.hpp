// The kernel lab's history: every row of every lab run (build, check, times) kept in
// lab_history.json beside the user variants (userVariantsRoot()), newest last, each the CLI's
// JSON row (source sha256, tunables, device, check, max deviation, kernel and wall times) with
// the date, the variant forked from and a one-word result ("pass", "fail", "build",
// "timeout", ...). Exportable as JSON and CSV.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace clscope::ui {

// A row's "tunables" object as NAME=VALUE words (the history's CSV, the rows table, the
// history view).
std::string tunablesText(const nlohmann::json& tunables);

class LabHistory {
  public:
    // The history in `file` (default: userVariantsRoot()/lab_history.json), read when there.
    explicit LabHistory(std::filesystem::path file = defaultFile());
    static std::filesystem::path defaultFile();

    // Appends one run's rows (the CLI's JSON rows) and writes the file; returns the entries.
    nlohmann::json record(const nlohmann::json& rows, const std::string& from);
    const nlohmann::json& entries() const { return entries_; }
    const std::filesystem::path& file() const { return file_; }

    void exportJson(const std::filesystem::path& path) const;
    void exportCsv(const std::filesystem::path& path) const;

    // The one-word result of a CLI row: its check when it ran, else why not.
    static std::string resultOf(const nlohmann::json& row);

  private:
    std::filesystem::path file_;
    nlohmann::json entries_ = nlohmann::json::array();
};

} // namespace clscope::ui
