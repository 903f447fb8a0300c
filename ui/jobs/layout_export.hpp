// A run's result in the output layouts of its algorithm besides clscope's own (--layout NAME;
// gpu/facets/layouts_facet.hpp), for the GUI's export: the layouts offered, what each writes
// (the same facet call clscope-cli makes after its run) and the clscope-cli command line that
// writes it. Qt-free; built by the job of a run or of a stored result (ui/jobs).
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/command_line.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clscope::ui {

struct LayoutExport {
    std::vector<OutputLayout> layouts; // empty: the algorithm has none besides clscope's
    std::function<LayoutOutput(const std::string& layout)> output;
    std::function<std::string(const std::string& layout)> command;
    // The suffix a file of `layout` takes ("h5", "refl").
    std::function<std::string(const std::string& layout)> suffix;
    bool empty() const { return layouts.empty(); }
};

// The layouts of `result`, the run of `command` (its input when read whole, else null: read
// again from command.sources where a layout needs it).
LayoutExport layoutExport(const Algorithm& algorithm, const RunCommand& command,
                          std::shared_ptr<const AlgorithmInput> input,
                          std::shared_ptr<const AlgorithmResult> result);

} // namespace clscope::ui
