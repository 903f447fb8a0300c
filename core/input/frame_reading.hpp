// Reading an input's frame stack, whatever its source: a file (EIGER data_NNNNNN parts
// joined) or a detector stream, windowed to the sources' frame range. Part of the input module
// (DESIGN.md §1).
#pragma once
#include "core/frame_stream.hpp"
#include "core/input/input_role.hpp"
#include "core/input/input_sources.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clscope {

// The frame stack of a `stack` role as a stream, windowed to the sources' --frames (InputError
// naming FILE:PATH when the range is beyond the stack).
std::shared_ptr<FrameStream> openFrames(const InputSources& sources, const InputRole& role);

// Why `frames` frames at `where` (a single 2-D image when `single`) are too few for `role` of
// `algorithm` (its minFrames); empty when they are enough.
std::string tooFewFrames(const InputRole& role, const std::string& algorithm,
                         const std::string& where, std::uint64_t frames, bool single);
// InputError with tooFewFrames' reason for the first stack role of a file run that has too few
// frames after the sources' frame range (a live stream is not checked: its frames are to come).
void checkFrameCounts(const std::vector<InputRole>& roles, const std::string& algorithm,
                      const InputSources& sources);

} // namespace clscope
