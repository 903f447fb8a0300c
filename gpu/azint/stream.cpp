// azint's stream facet: a live run on one OpenCL device with an OpenCL variant (AzintStreamStage,
// stream_stage.hpp); the host variant goes in passes.
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/azint_gpu.hpp"
#include "gpu/azint/facets.hpp"
#include "gpu/azint/stream_stage.hpp"
#include "gpu/facets/stream_facet.hpp"

namespace clscope::azint {

namespace {

class AzintStream : public TypedStream<Algorithm> {
  protected:
    std::unique_ptr<pipeline::FrameStage> stageWith(const Run& run) const override {
        const std::string id = variantOf(run);
        const std::optional<Method> method = methodOf(id);
        if (!method || !run.supports(run.algorithm().variant(id)).ok) return nullptr;
        return std::make_unique<AzintStreamStage>(run.request(), run.params(), *method, id);
    }
};

} // namespace

std::shared_ptr<const Facet> streamFacet() {
    return std::make_shared<AzintStream>();
}

} // namespace clscope::azint
