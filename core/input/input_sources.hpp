// Where each of an algorithm's input roles is read from: the input file (or a detector stream),
// per-role overrides, roles switched off or held in memory, and the frame range. Part of the
// input module (DESIGN.md §1).
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"
#include "core/input/frame_range.hpp"
#include "core/input/input_role.hpp"
#include "core/io.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace clscope {
namespace stream {
class LiveFrames;
}

struct InputSources {
    std::string file;
    std::map<std::string, std::string> overrides; // role id -> PATH, or FILE[:PATH] if otherFile
    std::set<std::string> disabled;               // roles switched off
    FrameRange frames{};                          // of the `stack` role
    // Seconds per frame (--frame-time): the frames an event list (DESIGN.md §3) is binned into
    // at read time (openFrames); unset, an event list is refused (UsageError).
    std::optional<double> frameTime{};
    // Roles held in memory (e.g. labels edited in the GUI): read() takes these instead of the
    // file. A command line cannot name them: save them to a file and set an override instead.
    std::map<std::string, std::shared_ptr<const Array>> arrays{};
    // A detector stream (`file` is tcp://HOST:PORT, DESIGN.md §4): the `stack` role's frames
    // come from it (openFrames), the other roles at `file` from its start message (open()).
    std::shared_ptr<const stream::LiveFrames> live{};
    // File and path of a role (the override, else the input file at the default path).
    DataLocation locate(const InputRole& role) const;
    // The HDF5 file `name` as a role reads it: the stream's start message when it is `file`
    // of a live input (one reader shared by every caller of the run).
    std::shared_ptr<H5Reader> open(const std::string& name) const;
    // Whether the role is held in memory (arrays holds it, not null).
    bool inMemory(const InputRole& role) const;
};

} // namespace clscope
