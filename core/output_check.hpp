// The one output-safety rule of every file a run writes (main output, side outputs such as
// --phil, debug images, reports, batch outputs), checked before any work starts: an output is
// never an input, never another output of the same run, never a folder, FIFO, socket, device
// or symbolic link (which a rename would replace), and its folder exists.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace clscope {

// An output or input file with the option that named it, e.g. {"-o", "out.h5"}.
struct NamedPath {
    std::string option, path;
};

// Whether two paths name the same file: by device and inode when both exist, else by their
// absolute, normalised names (symbolic links of the folders resolved).
bool sameFile(const std::string& a, const std::string& b);

// UsageError for an empty name, a folder, a non-regular file or a symbolic link; InputError
// when the folder does not exist. `option` names the culprit in the message.
void checkOutputFile(const std::string& option, const std::string& path);

// checkOutputFile for each output, then UsageError when an output is one of the inputs or
// another output (the message names both options).
void checkOutputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

} // namespace clscope
