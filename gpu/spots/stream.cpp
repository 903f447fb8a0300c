// spots's stream facet: a live run on one OpenCL device, 2-D spots (SpotsStreamStage,
// stream_stage.hpp).
#include "gpu/facets/stream_facet.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"
#include "gpu/spots/spots_gpu.hpp"
#include "gpu/spots/stream_stage.hpp"

namespace clscope::spots {

namespace {

class SpotsStream : public TypedStream<Algorithm> {
  protected:
    std::unique_ptr<pipeline::FrameStage> stageWith(const Run& run) const override {
        const RunRequest& request = run.request();
        const Params& p = run.params();
        if (p.threeD || request.params.boolean("debug")) return nullptr; // the whole stack
        const auto* v = variantSet().get(variantOf(run));
        if (!v || v->traits.host() || !v->accepts({request.device, nullptr, &p}).ok) return nullptr;
        return std::make_unique<SpotsStreamStage>(request, p, v->traits);
    }
};

} // namespace

std::shared_ptr<const Facet> streamFacet() {
    return std::make_shared<SpotsStream>();
}

} // namespace clscope::spots
