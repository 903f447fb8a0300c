// Algorithm's entry point of the stream facet: without one, a live run goes through passes.
#include "gpu/facets/stream_facet.hpp"
#include "gpu/pipeline/frame_stage.hpp"

namespace clscope {

std::unique_ptr<pipeline::FrameStage>
Algorithm::streamStage(const RunRequest& request, const std::vector<DeviceInfo>& devices) const {
    const auto* f = facet<StreamFacet>();
    if (!f) return nullptr;
    RunRequest streamed = request;
    streamed.input = nullptr; // the frames come from the stream
    return f->stage(*parse(streamed), devices);
}

} // namespace clscope
