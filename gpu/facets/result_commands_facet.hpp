// Commands over an algorithm's result files besides its run (xpcs: `average`): each is a
// clscope-cli subcommand `NAME RESULT.h5 ... [--params P] [its options] -o OUT.h5`, made by the
// CLI from these declarations (app/cli/cli_result_commands.cpp); the GUI's views call the same
// core functions. Optional: found with Algorithm::facet<ResultCommandsFacet>().
#pragma once
#include "core/params.hpp"
#include "gpu/facet.hpp"

#include <functional>
#include <string>
#include <vector>

namespace clscope {

struct ResultCommand {
    std::string name, help; // subcommand and its one line
    std::vector<ParamSpec> specs;
    // Reads `inputs` (the caller checked the output is none of them), writes `output`
    // atomically, returns one line for people; UsageError or InputError naming what is wrong.
    std::function<std::string(const std::vector<std::string>& inputs, const ParamSet& params,
                              const std::string& output)>
        run;
    // What the positional inputs are, in --help.
    std::string inputs = "result files (HDF5)";
};

class ResultCommandsFacet : public Facet {
  public:
    virtual std::vector<ResultCommand> commands() const = 0;
};

} // namespace clscope
