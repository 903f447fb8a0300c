// Where a streaming run's frames come from, in order (DESIGN.md "Streaming pipeline"): a live
// detector stream, or a file read front to back. Frames come as they are held there: compressed
// ones as their bytes (the pipeline decodes them on the device), the others decoded.
#pragma once
#include "core/stream/stream_source.hpp"
#include "gpu/pipeline/frame_stage.hpp"

#include <memory>
#include <string>
#include <vector>

namespace clscope::stream {
class LiveFrames;
}

namespace clscope::pipeline {

class FrameFeed {
  public:
    virtual ~FrameFeed() = default;
    virtual FrameFormat format() const = 0;
    virtual std::size_t frameCount() const = 0;
    // The next frames in order, at least one and at most maxCount; empty at the end. Called
    // from one thread at a time (the pipeline's receiving thread).
    virtual std::vector<stream::ReceivedFrame> takeNext(std::size_t maxCount) = 0;
    // What an error about image I names: "stream tcp://…" or "file F:/entry/data/data".
    virtual std::string name() const = 0;
    // Whether the frames come decoded, a run of them at a time as one array (takeStack): a
    // file's stack read by libhdf5. The pipeline then uploads each batch in one copy.
    virtual bool stacked() const { return false; }
    // The next frames in order as one (n,H,W) array, 1 <= n <= maxCount; an empty array at the
    // end. Stacked feeds only.
    virtual Array takeStack(std::size_t maxCount);
};

// The frames of a live stream, as its receiver and parser threads hold them.
std::unique_ptr<FrameFeed> liveFeed(const stream::LiveFrames& live);

} // namespace clscope::pipeline
