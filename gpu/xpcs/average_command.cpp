// xpcs's result command `average` (DESIGN.md §4, §5 "Averaging"): correlate results of one q
// partition and one set of lags combined at the level of their sums, the runs the rules reject
// left out and listed; core/xpcs/average_file.hpp does it all, as for the GUI's Average view.
#include "core/xpcs/average_file.hpp"
#include "gpu/facets/result_commands_facet.hpp"
#include "gpu/xpcs/facets.hpp"

#include <cstdio>

namespace clscope::xpcs {

namespace {

std::string average(const std::vector<std::string>& inputs, const ParamSet& params,
                    const std::string& output) {
    weightsNamed(params.text("weights"));
    const std::vector<AverageRun> runs = readAverageRuns(inputs);
    const AverageOutcome outcome = averageWith(runs, params);
    writeAverage(output, runs, outcome); // the GUI's Average view saves through it too
    const std::string rejected = listedRejections(runs, outcome);
    char line[256];
    std::snprintf(line, sizeof line, "g2 of %zu bins x %zu lags averaged over %zu of %zu runs",
                  outcome.averaged->result.binCount(), outcome.lags, outcome.kept(runs.size()),
                  runs.size());
    return std::string(line) + " (weights " + outcome.weights + ")" +
           (rejected.empty() ? "" : "; rejected: " + rejected);
}

class ResultCommands final : public ResultCommandsFacet {
  public:
    std::vector<ResultCommand> commands() const override {
        return {{"average",
                 "Average correlate results of one q partition and lags, bad runs "
                 "left out",
                 averageParamSpecs(), &average}};
    }
};

} // namespace

std::shared_ptr<const Facet> resultCommandsFacet() {
    return std::make_shared<ResultCommands>();
}

} // namespace clscope::xpcs
