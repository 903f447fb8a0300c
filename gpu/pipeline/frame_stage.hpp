// The algorithm's part of a streaming run on a device (gpu/pipeline/stream_pipeline.hpp):
// the pipeline writes each batch of frames into the stage's device buffer (decoded there from
// the bytes as received, or uploaded), the stage runs its kernels on them and takes back its
// small per-frame results, then, once every frame is done, gives the run's result.
#pragma once
#include "core/array.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/opencl.hpp"

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace clscope {
class ClSession;
}

namespace clscope::pipeline {

struct FrameFormat {
    std::size_t height = 0, width = 0;
    DType dtype = DType::UInt16;
    bool live = false; // a detector's stream (else a file read front to back)
    std::size_t frameBytes() const { return height * width * dtypeSize(dtype); }
};

// Frames [first, first + count) of a run.
struct FrameRange {
    std::size_t first = 0, count = 0;
};

class FrameStage {
  public:
    virtual ~FrameStage() = default;
    // Whether the stage runs frames of this format (else the run goes the way it went without).
    virtual bool accepts(const FrameFormat&) const { return true; }
    // Frames per batch at most on this device for frames of this format (its buffers).
    virtual std::size_t batchFrames(const DeviceInfo& device, const FrameFormat& format) const = 0;
    // Made once per run: programs, buffers, what the run's other inputs give (`sources`: a
    // pixel mask, the first frame for an estimate). Batches of up to `batch` frames follow, at
    // most `frames` in all.
    virtual void open(ClSession& session, const InputSources& sources, const FrameFormat& format,
                      std::size_t batch, std::size_t frames) = 0;
    // Where a batch's frames go on the device: frame i of the batch at i * frameBytes.
    virtual const cl::Buffer& frameBuffer() const = 0;
    // The batch's frames (the run's [first, first + count)) are in frameBuffer(): its kernels
    // run on the session's queue and its per-frame results come back; the buffer may be
    // written again once this returns.
    virtual void process(std::size_t first, std::size_t count) = 0;
    // The run's result once its `frames` frames are processed; `info` gets the algorithm's part
    // (variant, note); the pipeline fills the device, times and parameters.
    virtual std::shared_ptr<AlgorithmResult> finish(std::size_t frames) = 0;
    // The run's input provenance (the `parameters` attribute's input part).
    virtual nlohmann::json provenance() const = 0;
    // What the stage chose for the run and why, for the run's log line (once every frame is
    // processed); "" where nothing.
    virtual std::string note() const { return {}; }
    // Whether the run's frames may go to several devices, a stage each (every frame's result
    // depends on that frame alone), joined by absorb() before finish().
    virtual bool mergesFrames() const { return false; }
    // Takes the results of `ranges` from `other`, a stage of the same run on another device
    // that processed those frames (and this one did not). mergesFrames() stages only.
    virtual void absorb(FrameStage& other, const std::vector<FrameRange>& ranges) {
        (void)other, (void)ranges;
        throw std::logic_error("FrameStage::absorb: the stage does not merge frames");
    }
};

} // namespace clscope::pipeline
