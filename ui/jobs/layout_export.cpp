#include "ui/jobs/layout_export.hpp"

#include "gpu/facets/layouts_facet.hpp"
#include "ui/jobs/algorithm_run.hpp"

namespace clscope::ui {

LayoutExport layoutExport(const Algorithm& algorithm, const RunCommand& command,
                          std::shared_ptr<const AlgorithmInput> input,
                          std::shared_ptr<const AlgorithmResult> result) {
    LayoutExport out;
    out.layouts = algorithm.outputLayouts();
    if (out.layouts.empty()) return out;
    // The layout writers read the result; the facet's interface takes it as the run's.
    auto shared = std::const_pointer_cast<AlgorithmResult>(std::move(result));
    out.output = [&algorithm, command, input, shared](const std::string& layout) {
        return algorithm.layoutOutput(layout, shared, input.get(), command.sources, command.params);
    };
    out.command = [command](const std::string& layout) {
        RunCommand withLayout = command;
        withLayout.layout = layout;
        return reproducingLine(withLayout);
    };
    out.suffix = [&algorithm](const std::string& layout) {
        return layoutSuffix(algorithm, layout);
    };
    return out;
}

} // namespace clscope::ui
