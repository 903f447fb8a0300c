// --layout of the algorithm commands (DESIGN.md §3 "Interchange with the facility's tools"):
// clscope's own layout (the algorithm's write, the default) or a layout another tool reads.
// A layout that cannot hold the run is a usage error naming what is missing, before anything
// is written.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/scale/passes.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace clscope::cli {

inline const std::string ownLayout = "clscope";

// The layouts of a command, clscope's first; only clscope's for most commands.
std::vector<std::string> layoutsOf(const std::string& command);
// --layout NAME where the command has layouts besides clscope's.
void addLayoutOption(CLI::App* sub, const Algorithm& algorithm, std::string& layout);
// Before the run: UsageError for a layout the input can never give (a stream: the facility
// layouts read the frames a second time) or that lacks what the layout needs (the command's
// check, from its labels, tables and geometry: no frames read).
void checkLayoutInput(const std::string& layout, const Algorithm& algorithm,
                      const InputSources& sources, const ParamSet& params);

// Writes the run's result into an output file.
using LayoutWrite = std::function<void(H5Writer&)>;
// What writes the run in `layout`, everything it needs computed (UsageError naming what the
// run lacks for it).
LayoutWrite prepareLayout(const std::string& layout, const Algorithm& algorithm,
                          const BudgetedRun& run, const InputSources& sources,
                          const ParamSet& params);

// correlate's facility layouts, aps and nxxpcs (xpcs_layout.cpp): the check before the run
// and the writer after it.
void checkXpcsLayout(const std::string& layout, const InputSources& sources,
                     const ParamSet& params);
LayoutWrite prepareXpcsLayout(const std::string& layout, const BudgetedRun& run,
                              const InputSources& sources, const ParamSet& params);

} // namespace clscope::cli
