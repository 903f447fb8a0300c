// The files a run reads, for the one output-safety rule (core/output_check.hpp): clscope-cli
// and the GUI's scripted run check their outputs against the same list.
#pragma once
#include "core/output_check.hpp"

#include <string>
#include <vector>

namespace clscope {

struct InputRole;
struct InputSources;

// Every file a run reads, each with the option that named it: the input, the --params file
// (inline JSON, starting with '{', names none) and the file of each role not switched off.
std::vector<NamedPath> inputFiles(const std::vector<InputRole>& roles, const InputSources& sources,
                                  const std::string& paramsArgument);

} // namespace clscope
