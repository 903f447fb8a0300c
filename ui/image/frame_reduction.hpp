// Which frames the image view shows and how they are reduced to one image, read from a
// FrameSource in chunks with progress and cancel (Qt-free, runs on any thread).
#pragma once
#include "core/progress.hpp"
#include "ui/image/frame_source.hpp"
#include "ui/image/image_math.hpp"

namespace clscope::ui {

struct ImageSelection {
    Reduction reduction = Reduction::Single;
    std::size_t frame = 0;                     // the frame shown when reduction == Single
    std::size_t firstFrame = 0, lastFrame = 0; // inclusive range for sum / mean / max
};

// Frames read per readFrames call, so a long sum never holds the whole stack.
inline constexpr std::size_t reductionChunkFrames = 32;
// Reductions over more frames than this run on a worker thread in the GUI.
inline constexpr std::size_t longReductionFrames = 16;

// The number of frames the selection reads (1 for a single frame).
std::size_t selectedFrameCount(const ImageSelection& selection);
bool isLongReduction(const ImageSelection& selection);

// The selected frames of source reduced to one image (the selection must be in range).
// Reports the fraction read after each chunk and throws Cancelled between chunks.
Image reduceSelection(const FrameSource& source, const ImageSelection& selection,
                      const Progress& progress = {});

} // namespace clscope::ui
