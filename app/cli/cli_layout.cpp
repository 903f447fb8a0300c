#include "app/cli/cli_layout.hpp"

namespace clscope::cli {

std::vector<std::string> layoutsOf(const Algorithm& algorithm) {
    std::vector<std::string> out{ownLayout};
    for (const OutputLayout& layout : algorithm.outputLayouts())
        out.push_back(layout.name);
    return out;
}

void addLayoutOption(CLI::App* sub, const Algorithm& algorithm, std::string& layout) {
    const std::vector<OutputLayout> layouts = algorithm.outputLayouts();
    if (layouts.empty()) return;
    std::string list = ownLayout, help;
    for (const OutputLayout& l : layouts)
        list += ", " + l.name, help += "; " + l.name + ": " + l.help;
    sub->add_option("--layout", layout,
                    "Output layout: " + list + " (default clscope" + help +
                        "; docs/INTERCHANGE.md)")
        ->check(CLI::IsMember(layoutsOf(algorithm)));
}

void checkLayoutInput(const std::string& layout, const Algorithm& algorithm,
                      const InputSources& sources, const ParamSet& params) {
    if (layout != ownLayout) algorithm.checkLayout(layout, sources, params);
}

LayoutOutput prepareLayout(const std::string& layout, const Algorithm& algorithm,
                           const BudgetedRun& run, const InputSources& sources,
                           const ParamSet& params) {
    if (layout != ownLayout)
        return algorithm.layoutOutput(layout, run.result, run.input.get(), sources, params);
    const auto result = run.result;
    const std::string group = algorithm.outputGroup();
    return {[result, group](H5Writer& out) { result->write(out, group); }, {}};
}

} // namespace clscope::cli
