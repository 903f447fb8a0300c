// xpcs's stream facet: a live multi-tau run on one OpenCL device with the variant `multitau` or
// `sparse`, or, named neither, the one a live stream's first batch calls for
// (MultitauStreamStage, stream_stage.hpp).
#include "gpu/facets/stream_facet.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/facets.hpp"
#include "gpu/xpcs/stream_stage.hpp"

namespace clscope::xpcs {

namespace {

class MultitauStream : public TypedStream<Algorithm> {
  protected:
    std::unique_ptr<pipeline::FrameStage> stageWith(const Run& run) const override {
        const Params& p = run.params();
        // Dense lags, two-time maps and the symmetric normalisation (a second pass over the
        // bins' frame sums) are refused on a stream (refuseOnStream); a file's run of them
        // goes whole or in passes.
        if (!p.multitau || !p.twotimeLabels.empty() || p.normalisation != Normalisation::Frame)
            return nullptr;
        const std::string id = variantOf(run);
        if ((id != "multitau" && id != "sparse") || !runs(run, id)) return nullptr;
        using Path = MultitauStreamStage::Path;
        // `multitau` by default: the first batch may call for `sparse` where the device runs it.
        const Path path = id == "sparse"                                           ? Path::Sparse
                          : !run.request().variant.empty() || !runs(run, "sparse") ? Path::Dense
                                                                                   : Path::Auto;
        return std::make_unique<MultitauStreamStage>(run.request(), p, path);
    }

  private:
    static bool runs(const Run& run, const std::string& id) {
        return run.supports(run.algorithm().variant(id)).ok;
    }
};

} // namespace

std::shared_ptr<const Facet> streamFacet() {
    return std::make_shared<MultitauStream>();
}

} // namespace clscope::xpcs
