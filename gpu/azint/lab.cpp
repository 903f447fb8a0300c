// azint's lab facet: the host's tunable values for a run (the frames' type, the local
// histogram's bins, the run's tuning over them) and the work of a run: the frames read once,
// the sums written once (signal, normalisation and count, 20 bytes a bin), three adds a pixel.
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/facets.hpp"
#include "gpu/azint/recipes.hpp"
#include "gpu/facets/lab_facet.hpp"

namespace clscope::azint {

namespace {

std::size_t binsOf(const Params& p) {
    return std::size_t(p.bins) * std::size_t(std::max(1, p.azimuthBins));
}

class AzintLab : public TypedLab<Algorithm> {
  protected:
    TunableValues hostTunablesWith(const Run& run) const override {
        const AzintInput* in = run.inputOrNull();
        const DType dtype = in ? in->data.frames.dtype() : DType::UInt16;
        return hostValues(dtype, binsOf(run.params()), run.request().device, run.request().tuning);
    }
    RunWork workWith(const Run& run) const override {
        const Array& frames = run.input().data.frames;
        const double f = double(frames.frameCount()), pixels = double(frames.frameSize());
        RunWork w;
        w.bytes = double(frames.byteSize()) + 20.0 * f * double(binsOf(run.params()));
        w.operations = 3.0 * f * pixels;
        return w;
    }
};

} // namespace

std::shared_ptr<const Facet> labFacet() {
    return std::make_shared<AzintLab>();
}

} // namespace clscope::azint
