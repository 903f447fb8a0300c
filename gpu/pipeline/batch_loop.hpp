// The batches of one device in a streaming run (stream_pipeline.hpp), one device alone
// (runStream) or one lane of several (runStreamOnDevices): batch k + 1 taken and its blocks
// planned while the device decodes batch k, then batch k's stage runs.
#pragma once
#include "gpu/pipeline/batch_writer.hpp"
#include "gpu/pipeline/frame_stage.hpp"

#include <cstddef>
#include <functional>
#include <utility>

namespace clscope {
class ClSession;
class Progress;
} // namespace clscope

namespace clscope::pipeline {

// Where a device's batches spent the host's time (wall, ms).
struct BatchTimes {
    double waitMs = 0;    // taking the next batch: its turn, receive, parse
    double prepareMs = 0; // its decode's blocks planned, its bytes into pinned memory
    double writeMs = 0;   // its frames onto the device (decode queued, or uploaded)
    double processMs = 0; // the stage's kernels and results back
    std::size_t batches = 0, frames = 0;
};

// The next batch (empty at the end) and the run's index of its first frame.
using TakeBatch = std::function<std::pair<Taken, std::size_t>()>;

// Runs the batches `take` gives through `writer` into `stage` on `session` until it gives an
// empty one; `done(first, count)` after each. A decoder's "frame K ..." names the feed's image.
void runBatches(const TakeBatch& take, BatchWriter& writer, FrameStage& stage, ClSession& session,
                const FrameFeed& feed, const Progress& progress, BatchTimes& times,
                const std::function<void(std::size_t, std::size_t)>& done);

} // namespace clscope::pipeline
