// Whole-file writes that never leave a partial output: the bytes go to a temporary name in
// the same folder, which is renamed into place only when everything was written.
#pragma once
#include <string>
#include <string_view>

namespace clscope {

// Throws InputError naming fileName when the folder is missing or the write fails.
void writeFileAtomically(const std::string& fileName, std::string_view bytes);

// The whole content of a file; throws InputError naming fileName when it cannot be read.
std::string readWholeFile(const std::string& fileName);

} // namespace clscope
