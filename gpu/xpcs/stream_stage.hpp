// xpcs multi-tau's stage of the streaming pipeline (gpu/pipeline): the OpenCL variant
// `multitau`'s device rings (multitau_rings.hpp) fed from the pipeline's frame buffer, each
// batch a block (its level-0 gather reads the frames where the pipeline decoded them, no copy
// back), the sums folded on the host as they complete. The result is the one the variant gives
// over the same frames from a file. Not for dense lags, two-time maps (refused on a stream) or
// float frames (the run goes the way it went without, and says why).
#pragma once
#include "gpu/pipeline/frame_stage.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/multitau_rings.hpp"

#include <memory>

namespace clscope::xpcs {

class MultitauStreamStage : public pipeline::FrameStage {
  public:
    MultitauStreamStage(RunRequest request, Params params);
    // Integer frames only (the variant's sums are integers).
    bool accepts(const pipeline::FrameFormat& format) const override;
    std::size_t batchFrames(const DeviceInfo& device,
                            const pipeline::FrameFormat& format) const override;
    void open(ClSession& session, const InputSources& sources, const pipeline::FrameFormat& format,
              std::size_t batch, std::size_t frames) override;
    const cl::Buffer& frameBuffer() const override { return frames_; }
    void process(std::size_t first, std::size_t count) override;
    std::shared_ptr<AlgorithmResult> finish(std::size_t frames) override;
    nlohmann::json provenance() const override { return binning_->provenance; }

  private:
    RunRequest request_;
    Params params_;
    std::shared_ptr<XpcsInput> binning_; // labels (pixel mask applied), frame time, q table
    Bins bins_;
    ClSession* session_ = nullptr;
    cl::Buffer frames_;
    std::unique_ptr<MultitauRings> rings_;
    std::size_t total_ = 0; // frames announced
    bool scan_ = false;     // the frames' largest value found on the device (the overflow bound)
};

} // namespace clscope::xpcs
