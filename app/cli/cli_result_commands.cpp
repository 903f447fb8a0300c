// The commands over result files that algorithms declare (gpu/facets/result_commands_facet.hpp),
// each a subcommand: NAME RESULT.h5 ... [--params P.json] [its options] -o OUT.h5.
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "core/output_check.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/facets/result_commands_facet.hpp"

#include <cstdio>
#include <memory>

namespace clscope::cli {

namespace {

struct ResultCommandArgs {
    std::vector<std::string> inputs;
    std::string output, paramsFile;
    SpecArgs params;
};

void runResultCommand(const ResultCommand& command, const ResultCommandArgs& a) {
    ParamSet params(command.specs);
    if (!a.paramsFile.empty()) params.mergeFile(a.paramsFile);
    applySpecArgs(params, a.params);
    std::vector<NamedPath> inputs;
    for (const std::string& input : a.inputs)
        inputs.push_back({"RUN", input});
    checkOutputs({{"-o", a.output}}, inputs); // before reading the inputs
    const std::string summary = command.run(a.inputs, params, a.output);
    std::printf("wrote %s: %s\n", a.output.c_str(), summary.c_str());
}

void addResultCommand(CLI::App& app, Action& action, const ResultCommand& command) {
    auto a = std::make_shared<ResultCommandArgs>();
    auto* sub = app.add_subcommand(command.name, command.help);
    sub->add_option("inputs", a->inputs, command.inputs)->required();
    sub->add_option("-o,--output", a->output, "Output HDF5 file")->required();
    sub->add_option("--params", a->paramsFile,
                    "Parameters: a JSON file, or inline JSON starting with '{'");
    addSpecOptions(sub, command.specs, a->params);
    sub->callback(
        [&action, a, command] { action = [a, command] { runResultCommand(command, *a); }; });
}

} // namespace

void addResultCommands(CLI::App& app, Action& action) {
    for (const auto& algorithm : AlgorithmRegistry::instance().all())
        if (const auto* facet = algorithm->facet<ResultCommandsFacet>())
            for (const ResultCommand& command : facet->commands())
                addResultCommand(app, action, command);
}

} // namespace clscope::cli
