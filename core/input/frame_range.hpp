// The frames of an input's frame stack that a run reads (--frames FIRST:COUNT, the GUI's First
// and Count fields): parsed and checked here only (DESIGN.md §1, the input module).
#pragma once
#include <cstdint>
#include <string>
#include <utility>

namespace clscope {

// Frames FIRST .. FIRST+COUNT-1 of the input's frame stack (--frames FIRST:COUNT); count 0:
// to the end. The default (0, 0) is every frame.
struct FrameRange {
    std::uint64_t first = 0, count = 0;
    bool all() const { return first == 0 && count == 0; }
    // [first, end) within a stack of `total` frames; InputError naming `where` when the range
    // starts or ends beyond it. How every reader windows its frames (openFrames).
    std::pair<std::uint64_t, std::uint64_t> within(std::uint64_t total,
                                                   const std::string& where) const;
    // The frames the range gives of a stack of `total` (a COUNT past the end cut there), as the
    // GUI checks its fields before a run; InputError when it starts past the last frame.
    std::uint64_t framesIn(std::uint64_t total) const;
    std::string text() const; // "FIRST:COUNT", as --frames takes it
    // "FIRST:COUNT" (COUNT may be omitted: to the end); UsageError naming the text otherwise.
    static FrameRange parse(const std::string& text);
    bool operator==(const FrameRange&) const = default;
};

} // namespace clscope
