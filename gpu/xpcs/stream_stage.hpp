// xpcs multi-tau's stage of the streaming pipeline (gpu/pipeline): each batch of frames, where
// the pipeline decoded it on the device, goes to the OpenCL variant `multitau`'s device rings
// (multitau_rings.hpp: its level-0 gather reads the frame buffer, no copy back) or, on a live
// stream, to the variant `sparse`'s (sparse_rings.hpp) as entries compacted there
// (frame_compaction.hpp: the labelled pixels that are not zero; a few bytes a frame come back).
// A live run that names no variant takes the sparse rings where the first batch's labelled
// pixels are mostly zero (below xpcs::liveSparseCrossover), said in the run's log (note()). The
// sums are folded on the host as they complete, by the same merge: the result is the one
// either variant gives over the same frames from a file, bit for bit. Not for dense lags,
// two-time maps (refused on a stream) or float frames (the run goes the way it went without,
// and says why).
#pragma once
#include "gpu/pipeline/frame_stage.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/frame_compaction.hpp"
#include "gpu/xpcs/multitau_rings.hpp"
#include "gpu/xpcs/sparse_rings.hpp"

#include <memory>

namespace clscope::xpcs {

class MultitauStreamStage : public pipeline::FrameStage {
  public:
    // The run's rings: those the first batch of a live stream calls for (Auto, the request
    // named no variant), the dense ones (`multitau` named, or a file) or the sparse ones
    // (`sparse` named: live streams only, a file runs the variant's own way).
    enum class Path { Auto, Dense, Sparse };
    MultitauStreamStage(RunRequest request, Params params, Path path);
    // Integer frames (the variants' sums are integers); unsigned ones of a live stream for Sparse.
    bool accepts(const pipeline::FrameFormat& format) const override;
    std::size_t batchFrames(const DeviceInfo& device,
                            const pipeline::FrameFormat& format) const override;
    void open(ClSession& session, const InputSources& sources, const pipeline::FrameFormat& format,
              std::size_t batch, std::size_t frames) override;
    const cl::Buffer& frameBuffer() const override { return frames_; }
    void process(std::size_t first, std::size_t count) override;
    std::shared_ptr<AlgorithmResult> finish(std::size_t frames) override;
    nlohmann::json provenance() const override { return binning_->provenance; }
    std::string note() const override { return note_; }

  private:
    void choose(std::size_t count); // Auto: the path of the first batch's occupancy
    void openDense();
    void openSparse();
    void processDense(std::size_t count);
    void processSparse(std::size_t first, std::size_t count);

    RunRequest request_;
    Params params_;
    Path path_;
    std::shared_ptr<XpcsInput> binning_; // labels (pixel mask applied), frame time, q table
    Bins bins_;
    ClSession* session_ = nullptr;
    pipeline::FrameFormat format_;
    cl::Buffer frames_;
    std::size_t batch_ = 0, total_ = 0; // frames a batch at most; frames announced
    std::unique_ptr<MultitauRings> rings_;
    bool scan_ = false; // the frames' largest value found on the device (the overflow bound)
    std::unique_ptr<FrameCompaction> compaction_; // the sparse path's (and Auto's first batch)
    std::unique_ptr<SparseRings> sparse_;
    std::size_t block_ = 0;     // the sparse rings' frames a block (a batch may take several)
    std::uint64_t entries_ = 0; // the sparse path's entries correlated
    std::string where_, note_;
};

} // namespace clscope::xpcs
