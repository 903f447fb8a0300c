// --layout of the algorithm commands (DESIGN.md §3 "Interchange with the facility's tools"):
// clscope's own layout (the algorithm's write, the default) or a layout another tool reads,
// one of the algorithm's (its layouts facet, gpu/facets/layouts_facet.hpp). A layout that
// cannot hold the run is a usage error naming what is missing, before anything is written.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/scale/passes.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace clscope::cli {

inline const std::string ownLayout = "clscope";

// The layouts of an algorithm, clscope's first; only clscope's for most.
std::vector<std::string> layoutsOf(const Algorithm& algorithm);
// --layout NAME where the algorithm has layouts besides clscope's.
void addLayoutOption(CLI::App* sub, const Algorithm& algorithm, std::string& layout);
// Before the run: UsageError for a layout that the run over these sources cannot fill (the
// algorithm's check: no frames read).
void checkLayoutInput(const std::string& layout, const Algorithm& algorithm,
                      const InputSources& sources, const ParamSet& params);
// What writes the run in `layout`, everything it needs computed (UsageError naming what the
// run lacks for it).
LayoutOutput prepareLayout(const std::string& layout, const Algorithm& algorithm,
                           const BudgetedRun& run, const InputSources& sources,
                           const ParamSet& params);

} // namespace clscope::cli
