// clscope-cli lab-diff A B: two rows of the kernel lab side by side (gpu/lab/lab_diff.hpp). A
// and B are FILE:N, row N (from 0; negative from the end) of a `lab --json` output or of the
// lab history (lab_history.json beside the user variants); the sources and compiled outputs
// come from the lab store.
#include "app/cli/cli_lab.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_parse.hpp"
#include "gpu/lab/lab_diff.hpp"

#include <cstdio>

namespace clscope::cli {

namespace {

nlohmann::json rowOf(const std::string& reference) {
    const auto colon = reference.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == reference.size())
        throw UsageError("lab-diff takes FILE:N (row N of a lab --json output or of the lab "
                         "history), not '" +
                         reference + "'");
    const std::string file = reference.substr(0, colon);
    long long n = 0;
    try {
        std::size_t used = 0;
        n = std::stoll(reference.substr(colon + 1), &used);
        if (used != reference.size() - colon - 1) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
        throw UsageError("lab-diff: '" + reference.substr(colon + 1) + "' in '" + reference +
                         "' is not a row number");
    }
    const auto parsed = parseJson(readWholeFile(file), file);
    const nlohmann::json rows = parsed.is_array()    ? parsed
                                : parsed.is_object() ? parsed.value("rows", nlohmann::json())
                                                     : nlohmann::json();
    if (!rows.is_array())
        throw InputError(file + ": not a lab --json output or a lab history (no rows)");
    const long long count = static_cast<long long>(rows.size());
    const long long at = n < 0 ? count + n : n;
    if (at < 0 || at >= count)
        throw UsageError("lab-diff: " + file + " has " + std::to_string(count) + " rows (0.." +
                         std::to_string(count - 1) + "), not row " + std::to_string(n));
    return rows[std::size_t(at)];
}

} // namespace

void addLabDiffCommand(CLI::App& app, Action& action) {
    auto refs = std::make_shared<std::pair<std::string, std::string>>();
    auto* sub = app.add_subcommand(
        "lab-diff", "Two kernel lab rows side by side: tunables, times, source, options, kernels' "
                    "figures and compiled output");
    sub->add_option("A", refs->first, "FILE:N, row N of a lab --json output or lab history")
        ->required();
    sub->add_option("B", refs->second, "FILE:N, the row to compare it with")->required();
    sub->callback([&action, refs] {
        action = [refs] {
            const nlohmann::json a = rowOf(refs->first), b = rowOf(refs->second);
            std::fputs(labDiff(a, b).c_str(), stdout);
        };
    });
}

} // namespace clscope::cli
