// Option helpers shared by the CLI commands.
#pragma once
#include "core/params.hpp"
#include "gpu/algorithm.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope::cli {

// NAME=VALUE pairs of --tune; UsageError for anything else.
std::map<std::string, int> parseTuning(const std::vector<std::string>& pairs);
// Every file an algorithm command would read.
std::vector<std::string> inputFiles(const Algorithm& algorithm, const InputSources& sources);
// UsageError when the output is one of the inputs (it would be replaced by the output).
void checkOutputPath(const std::string& output, const std::vector<std::string>& inputs);

} // namespace clscope::cli
