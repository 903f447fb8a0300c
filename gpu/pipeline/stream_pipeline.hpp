// One streaming run on one device (DESIGN.md "Streaming pipeline"): a session made once (the
// stage's programs and buffers, the decoder's), the frames taken from a live input in batches
// as they were received (the receiver's and parser's threads fill the queue meanwhile), written
// into the stage's device buffer (compressed frames uploaded as they came and decoded there by
// gpu/decode's kernel; others, or every frame when the device cannot or is told not to,
// decoded on the host and uploaded), the stage's kernels run and its per-frame results taken
// back batch by batch. No frame is copied into a stack on the host.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/pipeline/frame_feed.hpp"
#include "gpu/pipeline/frame_stage.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clscope::pipeline {

struct StreamRun {
    std::shared_ptr<AlgorithmResult> result; // its RunInfo complete (device, times, parameters)
    std::string note; // one line for the log: where the frames were decoded, batches, the
                      // stage's choice (FrameStage::note)
    std::size_t batches = 0;
};

// Runs `stage` over every frame of `feed` (a live stream, or a file read front to back: the
// stage reads its other roles from `sources`) on request.device. Compressed frames are decoded
// on the device unless CLSCOPE_STREAM_DECODE=host, or the device cannot (its local memory too
// small for a block): then on the host, which `note` says.
// A batch holds at most `budgetBytes` of frames (at least one frame): the run's memory budget.
StreamRun runStream(const RunRequest& request, const InputSources& sources, FrameFeed& feed,
                    FrameStage& stage, const Progress& progress = {},
                    std::uint64_t budgetBytes = UINT64_MAX);

// The same over several devices, `stages[d]` on devices[d] (each mergesFrames(); one device:
// runStream): the frames are handed out a batch at a time, in order, to whichever device is
// free, each decoding its batches itself; the stages' results are joined into the first's
// (FrameStage::absorb), so the result is the one a run on one device gives. A batch holds at
// most budgetBytes / devices of frames.
// The frames of a batch of that run: what every stage takes on its device, within the budget's
// share of one device, at least one, at most `frames`.
std::size_t batchOnDevices(const std::vector<FrameStage*>& stages,
                           const std::vector<DeviceInfo>& devices, const FrameFormat& format,
                           std::size_t frames, std::uint64_t budgetBytes);
StreamRun runStreamOnDevices(const RunRequest& request, const InputSources& sources,
                             FrameFeed& feed, const std::vector<FrameStage*>& stages,
                             const std::vector<DeviceInfo>& devices, const Progress& progress = {},
                             std::uint64_t budgetBytes = UINT64_MAX);

} // namespace clscope::pipeline
