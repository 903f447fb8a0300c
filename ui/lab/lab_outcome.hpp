// What one lab run gave the GUI: clscope-cli lab's exit code and JSON rows (the CLI's own, one
// per row: the variant forked from, then the fork or each sweep value), the fork's build
// messages at the lines of the edited program, or why there are no rows.
#pragma once
#include "gpu/lab/build_log.hpp"
#include "gpu/lab/lab_plan.hpp"

#include <QString>
#include <nlohmann/json.hpp>
#include <vector>

namespace clscope::ui {

struct LabOutcome {
    LabOptions options; // what was asked (sourceFile: the edited program)
    int exitCode = -1;  // clscope-cli's (DESIGN.md §4)
    nlohmann::json rows = nlohmann::json::array();
    std::vector<BuildMessage> buildMessages; // the fork's, at the edited program's lines
    QString error;                           // no rows: why (the CLI's message)
    QString errorOutput;                     // the CLI's stderr
    double wallSeconds = 0;

    // The fastest fork row that ran and passed its check (index into rows), or -1.
    int bestForkRow() const;
};

} // namespace clscope::ui
