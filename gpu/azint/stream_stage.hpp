// azint's stage of the streaming pipeline (gpu/pipeline): the OpenCL variant's kernels
// (device_kernels.hpp) run on the frames where the pipeline decoded them, each batch's sums
// fetched into the result's rows as it completes. The result is the one the variant gives over
// the same frames from a file; the geometry and masks are read as a file run reads them.
#pragma once
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/device_kernels.hpp"
#include "gpu/pipeline/frame_stage.hpp"

#include <memory>
#include <string>

namespace clscope::azint {

class AzintStreamStage : public pipeline::FrameStage {
  public:
    AzintStreamStage(RunRequest request, Params params, Method method, std::string variant);
    // The frame types the kernels read (DATA_T).
    bool accepts(const pipeline::FrameFormat& format) const override;
    std::size_t batchFrames(const DeviceInfo& device,
                            const pipeline::FrameFormat& format) const override;
    void open(ClSession& session, const InputSources& sources, const pipeline::FrameFormat& format,
              std::size_t batch, std::size_t frames) override;
    const cl::Buffer& frameBuffer() const override { return frames_; }
    void process(std::size_t first, std::size_t count) override;
    std::shared_ptr<AlgorithmResult> finish(std::size_t frames) override;
    nlohmann::json provenance() const override { return beside_->provenance; }
    // Every frame's profile is its own.
    bool mergesFrames() const override { return true; }
    void absorb(pipeline::FrameStage& other,
                const std::vector<pipeline::FrameRange>& ranges) override;

  private:
    RunRequest request_;
    Params params_;
    Method method_;
    std::string variant_;
    std::shared_ptr<AzintInput> beside_; // the masks and the geometry
    std::unique_ptr<DeviceKernels> kernels_;
    cl::Buffer frames_;
    Result result_;
};

} // namespace clscope::azint
