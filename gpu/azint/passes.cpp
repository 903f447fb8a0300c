// azint within a memory budget: passes over contiguous frame ranges (split.cpp joins them),
// each reading its frames; the masks and the geometry are read once. A live input always goes
// in passes (its frames pass through as they arrive).
#include "gpu/scale/passes.hpp"
#include "core/frame_stream.hpp"
#include "core/input/frame_reading.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/facets.hpp"
#include "gpu/facets/passes_facet.hpp"
#include "gpu/scale/frame_range_plan.hpp"

namespace clscope::azint {

namespace {

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
        auto plan = std::make_unique<FrameRangePlan<AzintInput>>();
        plan->check = [](const AzintInput& part) { checkInput(part.data); };
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
