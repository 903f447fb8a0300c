// spots' stage of the streaming pipeline (gpu/pipeline): the spots program over each batch of
// frames on the device, the compacted signal list and the values of its pixels (gather.cl)
// back, the batch's 2-D spots grouped on the host while the next batch runs. The result is the
// one a run over the frames as a stack gives (per-frame pixel lists, no dense mask kept).
#pragma once
#include "core/spots/batch_spots.hpp"
#include "gpu/pipeline/frame_stage.hpp"
#include "gpu/spots/device_run.hpp"
#include "gpu/spots/run_types.hpp"

#include <deque>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clscope::spots {

class SpotsStreamStage : public pipeline::FrameStage {
  public:
    SpotsStreamStage(RunRequest request, Params params, Window window);
    ~SpotsStreamStage() override;
    // Not frames smaller than dispersion_extended's erosion distance (the host computes those).
    bool accepts(const pipeline::FrameFormat& format) const override;
    std::size_t batchFrames(const DeviceInfo& device,
                            const pipeline::FrameFormat& format) const override;
    void open(ClSession& session, const InputSources& sources, const pipeline::FrameFormat& format,
              std::size_t batch, std::size_t frames) override;
    const cl::Buffer& frameBuffer() const override { return run_->frames; }
    void process(std::size_t first, std::size_t count) override;
    std::shared_ptr<AlgorithmResult> finish(std::size_t frames) override;
    nlohmann::json provenance() const override { return provenance_; }
    // 2-D: every frame's spots are its own.
    bool mergesFrames() const override { return true; }
    void absorb(pipeline::FrameStage& other,
                const std::vector<pipeline::FrameRange>& ranges) override;

  private:
    using Pixels = std::vector<std::vector<std::pair<std::uint32_t, double>>>;
    // The batch's signal pixels and their values, per frame of the batch (unsorted).
    Pixels fetch(std::size_t count);
    // Join the oldest grouping tasks in batch order until at most `pending` run.
    void waitGrouping(std::size_t pending = 0);

    RunRequest request_;
    Params params_;
    Window window_;
    std::string note_;
    std::unique_ptr<device::DeviceRun> run_;
    pipeline::FrameFormat format_;
    cl::Kernel gather_;
    cl::Buffer values_;
    double threshold_ = 0;
    FramePixels pixels_; // every frame's, sorted by the grouping tasks
    BatchSpots spots_;   // the batches' spots, joined in batch order
    // The spots of the batch from frame `first` (byFrame: its signal pixels; their lists
    // sorted into pixels_).
    std::vector<Spot> groupBatch(std::size_t first, Pixels& byFrame);
    // The last batches' grouping tasks (their first frames), oldest first: each groups its
    // batch, waits for the one before to join its spots, joins its own (spots_) and gives the ms
    // from its launch to then.
    std::deque<std::pair<std::size_t, std::shared_future<double>>> grouping_;
    nlohmann::json provenance_;
    int maskFetches_ = 0;
};

} // namespace clscope::spots
