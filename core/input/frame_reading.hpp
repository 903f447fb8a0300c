// Reading an input's frame stack, whatever its source: a file (EIGER data_NNNNNN parts
// joined) or a detector stream, windowed to the sources' frame range. Part of the input module
// (DESIGN.md §1).
#pragma once
#include "core/frame_stream.hpp"
#include "core/input/input_role.hpp"
#include "core/input/input_sources.hpp"

#include <memory>

namespace clscope {

// The frame stack of a `stack` role as a stream, windowed to the sources' --frames (InputError
// naming FILE:PATH when the range is beyond the stack).
std::shared_ptr<FrameStream> openFrames(const InputSources& sources, const InputRole& role);

} // namespace clscope
