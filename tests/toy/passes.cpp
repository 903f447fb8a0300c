// The toy within a memory budget: passes over frame ranges that fit, joined by its split
// facet's join.
#include "gpu/scale/passes.hpp"
#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "gpu/facets/passes_facet.hpp"
#include "toy/algorithm.hpp"
#include "toy/facets.hpp"

namespace clscope::toy {

namespace {

class FramePlan : public PassPlan {
  public:
    std::shared_ptr<const FrameStream> stream;
    std::size_t perPass = 1;
    ParamSet params;
    std::size_t count() const override { return (stream->frameCount() + perPass - 1) / perPass; }
    Algorithm::Part read(std::size_t pass) const override {
        const std::size_t first = pass * perPass;
        auto in = makeFrameSumsInput(
            stream->read(first, std::min(perPass, stream->frameCount() - first)));
        in->provenance = provenance;
        return {in, params};
    }
};

class FramePasses : public PassesFacet {
  public:
    std::unique_ptr<PassPlan> plan(const InputSources& sources, const PreparedRun& run,
                                   std::uint64_t budget) const override {
        std::shared_ptr<const FrameStream> stream =
            openFrames(sources, run.algorithm().role("frames"));
        if (budgetBytes(stream->frameCount(), stream->frameBytes(), "frames") <= budget)
            return nullptr;
        if (stream->frameBytes() > budget) overBudget("one frame", stream->frameBytes(), budget);
        auto plan = std::make_unique<FramePlan>();
        plan->perPass = stream->framesWithin(budget);
        plan->params = run.values();
        plan->provenance = provenanceOf(sources);
        plan->stream = std::move(stream);
        return plan;
    }
};

} // namespace

std::shared_ptr<const Facet> passesFacet() {
    return std::make_shared<FramePasses>();
}

} // namespace clscope::toy
