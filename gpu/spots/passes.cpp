// spots within a memory budget: passes over contiguous frame ranges (2D spots never cross
// frames), joined frame by frame by Algorithm::join. global_threshold=auto is DIALS'
// estimate from the first frame, so it is taken once and given to every pass.
#include "gpu/scale/passes.hpp"
#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/input/frame_reading.hpp"
#include "gpu/facets/passes_facet.hpp"
#include "gpu/scale/frame_range_plan.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"
#include "gpu/spots/run_types.hpp"

#include <cstdlib>

namespace clscope::spots {

namespace {

// Bytes of frames a pass over a stream reads: CLSCOPE_LIVE_PASS_MIB, else 256 MiB. 16 MiB was
// one EIGER2 16M or 4M frame a pass: ~46 / ~10 ms a pass on one H200 against ~1.5 / 0.3 ms a
// frame from memory (PERFORMANCE.md, session 10).
std::uint64_t livePassBytes() {
    if (const char* env = std::getenv("CLSCOPE_LIVE_PASS_MIB"); env && std::atoll(env) > 0)
        return std::uint64_t(std::atoll(env)) << 20;
    return 256ull << 20;
}

// Frame ranges whose frames fit half the budget; a live run always goes in passes (frames
// pass through as they arrive).
std::unique_ptr<PassPlan> planFramePasses(const InputSources& sources, const Algorithm::Run& run,
                                          std::uint64_t budget) {
    const Params& p = run.params();
    std::shared_ptr<const FrameStream> stream = openFrames(sources, run.algorithm().role("frames"));
    const std::uint64_t whole = budgetBytes(stream->frameCount(), stream->frameBytes(), "frames");
    const bool live = sources.live != nullptr; // frames go through as they arrive
    if (whole <= budget && (!live || p.threeD)) return nullptr;
    if (p.threeD)
        overBudget("spots --3d (spots may cross any frame, so the whole stack is read)", whole,
                   budget);
    // Half the budget for the frames of a pass, the rest for its results and buffers.
    if (stream->frameBytes() > budget / 2) overBudget("one frame", stream->frameBytes(), budget);
    auto plan = std::make_unique<FrameRangePlan<SpotsInput>>();
    plan->check = [](const SpotsInput& part) { checkInput(part.data); };
    auto masked = readMaskRole(sources, stream->height(), stream->width());
    // The passes keep their signal pixel lists, not a dense mask each: the joined result's
    // /signal is made from the lists when written (denseSignal), the same bytes. Dense masks
    // cost a zero fill per pass and a join of one byte per pixel of every frame (3.6 GB for 200
    // EIGER2 16M frames: ~6 s a run on the H200's host, PERFORMANCE.md session 12).
    masked->signalMask = false;
    plan->beside = std::move(masked);
    plan->framesPerPass =
        stream->framesWithin(live ? std::min(budget / 2, livePassBytes()) : budget / 2);
    plan->params = run.values();
    if (p.globalAuto) {
        Input first{stream->read(0, 1), {}};
        plan->params.set("global_threshold", autoGlobalThreshold(first));
    }
    plan->provenance = plan->beside->provenance;
    plan->stream = std::move(stream);
    return plan;
}

} // namespace

std::shared_ptr<const Facet> passesFacet() {
    return std::make_shared<PassesOf<Algorithm>>(&planFramePasses);
}

} // namespace clscope::spots
