// azint's lab facet: the host's tunable values for a run (the frames' type, integer sums, the
// local histogram's bins, the run's tuning over them) and the work of a run: the frames read once,
// the sums written once (signal and count, 12 bytes a bin), two adds a pixel.
#include "core/azint/binning.hpp"
#include "core/azint/tiles.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/device_tables.hpp"
#include "gpu/azint/facets.hpp"
#include "gpu/azint/recipes.hpp"
#include "gpu/facets/lab_facet.hpp"

namespace clscope::azint {

namespace {

std::size_t binsOf(const Params& p) {
    return std::size_t(p.bins) * std::size_t(std::max(1, p.azimuthBins));
}

// The run's shape as the device run computes it (the binning of the input's geometry, its
// tiles as the request's tiled program cuts them).
RunShape shapeOf(const AzintInput* in, const Params& p, const RunRequest& request) {
    if (!in) return {DType::UInt16, binsOf(p), 0};
    const Array& frames = in->data.frames;
    const PixelMap map = computePixelMap(in->geometry, p, frames.height(), frames.width(),
                                         in->data.mask, in->data.pixelMask);
    const Binning binning = computeBinning(map, p);
    const TileShape tile = tileShape(request.programs, request.tuning);
    const TiledBins tiles(binning.binOfPixel, frames.height(), frames.width(), tile.rows,
                          tile.columns);
    return {frames.dtype(), binning.bins(), longestBinOf(binning), std::size_t(tiles.widest())};
}

class AzintLab : public TypedLab<Algorithm> {
  protected:
    TunableValues hostTunablesWith(const Run& run) const override {
        return hostValues(shapeOf(run.inputOrNull(), run.params(), run.request()),
                          run.request().device, run.request().tuning);
    }
    RunWork workWith(const Run& run) const override {
        const Array& frames = run.input().data.frames;
        const double f = double(frames.frameCount()), pixels = double(frames.frameSize());
        RunWork w;
        w.bytes = double(frames.byteSize()) + 12.0 * f * double(binsOf(run.params()));
        w.operations = 2.0 * f * pixels;
        return w;
    }
};

} // namespace

std::shared_ptr<const Facet> labFacet() {
    return std::make_shared<AzintLab>();
}

} // namespace clscope::azint
