#include "app/cli/cli_layout.hpp"

#include "core/errors.hpp"

#include <map>

namespace clscope::cli {

namespace {

struct CommandLayouts {
    std::vector<std::string> names; // besides clscope's
    void (*check)(const std::string&, const InputSources&, const ParamSet&);
    LayoutWrite (*prepare)(const std::string&, const BudgetedRun&, const InputSources&,
                           const ParamSet&);
};

const std::map<std::string, CommandLayouts>& table() {
    static const std::map<std::string, CommandLayouts> layouts{
        {"correlate", {{"aps", "nxxpcs"}, &checkXpcsLayout, &prepareXpcsLayout}},
    };
    return layouts;
}

} // namespace

std::vector<std::string> layoutsOf(const std::string& command) {
    std::vector<std::string> out{ownLayout};
    if (const auto it = table().find(command); it != table().end())
        out.insert(out.end(), it->second.names.begin(), it->second.names.end());
    return out;
}

void addLayoutOption(CLI::App* sub, const Algorithm& algorithm, std::string& layout) {
    const std::vector<std::string> names = layoutsOf(algorithm.command());
    if (names.size() < 2) return;
    std::string list;
    for (const std::string& name : names)
        list += (list.empty() ? "" : ", ") + name;
    sub->add_option("--layout", layout,
                    "Output layout: " + list +
                        " (default clscope; aps: APS 8-ID-I / boost_corr, read by pyXpcsViewer "
                        "and XPCS-Toolkit; nxxpcs: NeXus NXxpcs; docs/INTERCHANGE.md)")
        ->check(CLI::IsMember(names));
}

void checkLayoutInput(const std::string& layout, const Algorithm& algorithm,
                      const InputSources& sources, const ParamSet& params) {
    if (layout == ownLayout) return;
    if (sources.live)
        throw UsageError("--layout " + layout +
                         " reads the frames a second time (frame sums, mean image): run it on a "
                         "file, not on a stream");
    if (const auto it = table().find(algorithm.command()); it != table().end())
        it->second.check(layout, sources, params);
}

LayoutWrite prepareLayout(const std::string& layout, const Algorithm& algorithm,
                          const BudgetedRun& run, const InputSources& sources,
                          const ParamSet& params) {
    if (layout == ownLayout) {
        const auto result = run.result;
        const std::string group = algorithm.outputGroup();
        return [result, group](H5Writer& out) { result->write(out, group); };
    }
    const auto it = table().find(algorithm.command());
    if (it == table().end()) throw UsageError(algorithm.command() + " has no layout " + layout);
    return it->second.prepare(layout, run, sources, params);
}

} // namespace clscope::cli
