// One input an algorithm reads (its role), e.g. frames at /entry/data/data: how the command
// line names it and how the GUI's Data panel offers it. Part of the input module (DESIGN.md §1).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace clscope {

struct InputRole {
    std::string id;          // "frames", "labels", "pixel_mask", "digis", "particles", ...
    std::string flag;        // CLI option that overrides the path, e.g. "--data"
    std::string defaultPath; // inside the input file
    std::string help;
    bool optional = false;       // may be absent (then the algorithm runs without it)
    bool otherFile = false;      // the option takes FILE[:PATH], not only PATH
    std::string disableFlag;     // e.g. "--no-pixel-mask": do not read it even when present
    bool stack = false;          // a stack of frames (T,...): --frames FIRST:COUNT selects from it
    std::uint64_t minFrames = 0; // a stack role: the fewest frames a run needs (after --frames)
    // How the GUI's Data panel offers the role: what a dataset must look like to play it.
    enum class Layout {
        None,         // not offered (read with another role, e.g. a scalar beside the frames)
        Frames,       // (T,H,W) or (H,W), any readable type
        IntegerImage, // (H,W) integer, the frames' (H,W) when frames are assigned
        Group,        // a group holding the datasets named in members
    };
    Layout layout = Layout::None;
    std::vector<std::string> members; // Group: the datasets it must hold
    std::string title;                // for people, e.g. "q-bin labels" (empty: the id)
    std::vector<std::string> hints;   // words in a dataset path that suggest this role
};

// A role with its id, option, default path and help; set the other fields after.
InputRole makeRole(std::string id, std::string flag, std::string defaultPath, std::string help);

} // namespace clscope
