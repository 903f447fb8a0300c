// Temporary names beside an output file: outputs are written there, then renamed into place.
#pragma once
#include <string>

namespace clscope {

// ".<name>.tmp-<pid>-<n>" in the target's folder; unique within the process.
std::string temporaryNameFor(const std::string& target);

} // namespace clscope
