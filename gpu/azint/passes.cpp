// azint within a memory budget: passes over contiguous frame ranges (split.cpp joins them),
// each reading its frames; the masks and the geometry are read once. A live input always goes
// in passes (its frames pass through as they arrive).
#include "gpu/scale/passes.hpp"
#include "core/frame_stream.hpp"
#include "core/input/frame_reading.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/facets.hpp"
#include "gpu/facets/passes_facet.hpp"

namespace clscope::azint {

namespace {

class FramePlan : public PassPlan {
  public:
    std::shared_ptr<const FrameStream> stream;
    std::shared_ptr<const AzintInput> beside; // masks, geometry and provenance, no frames
    std::size_t framesPerPass = 1;
    ParamSet params;

    std::size_t count() const override {
        return (stream->frameCount() + framesPerPass - 1) / framesPerPass;
    }

    Algorithm::Part read(std::size_t pass) const override {
        const std::size_t first = pass * framesPerPass;
        // The pass's frames go back to the stream when the pass is done with them.
        std::shared_ptr<AzintInput> part(new AzintInput(*beside),
                                         [frames = stream](AzintInput* input) {
                                             frames->recycle(std::move(input->data.frames));
                                             delete input;
                                         });
        part->data.frames =
            stream->read(first, std::min(framesPerPass, stream->frameCount() - first));
        checkInput(part->data);
        return {part, params};
    }
};

// Frame ranges whose frames fit half the budget (the rest: the pass's sums and buffers).
class FramePasses : public TypedPasses<Algorithm> {
  protected:
    std::unique_ptr<PassPlan> planWith(const InputSources& sources, const Run& run,
                                       std::uint64_t budget) const override {
        const clscope::Algorithm& algorithm = run.algorithm();
        std::shared_ptr<const FrameStream> stream = openFrames(sources, algorithm.role("frames"));
        const std::uint64_t whole =
            budgetBytes(stream->frameCount(), stream->frameBytes(), "frames");
        if (whole <= budget && !sources.live) return nullptr;
        if (stream->frameBytes() > budget / 2)
            overBudget("one frame", stream->frameBytes(), budget);
        auto plan = std::make_unique<FramePlan>();
        plan->beside =
            readBesideFrames(algorithm, sources, run.values(), stream->height(), stream->width());
        plan->framesPerPass = stream->framesWithin(budget / 2);
        plan->params = run.values();
        plan->provenance = plan->beside->provenance;
        plan->stream = std::move(stream);
        return plan;
    }
};

} // namespace

std::shared_ptr<const Facet> passesFacet() {
    return std::make_shared<FramePasses>();
}

} // namespace clscope::azint
