// spots's bench facet: seed and large from memory, stream and stream4m end to end.
#include "core/errors.hpp"
#include "core/spots/synthetic.hpp"
#include "gpu/facets/bench_facet.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"
#include "gpu/spots/run_types.hpp"

#include <cstring>

namespace clscope::spots {

namespace {

// stream: `frames` EIGER2 16M frames (4148x4362 uint16, module gaps) from host memory, end to
// end (copy in, threshold, compacted list out, spots grouped): `distinct` generated frames
// repeated. The reference runs on the distinct frames only (compare() checks that prefix).
// `frames` frames of h x w (EIGER2 16M: 4148x4362, 4M: 2068x2162) cycling through `distinct`.
BenchCase streamCase(const clscope::Algorithm& algorithm, std::size_t frames, std::size_t distinct,
                     std::size_t h, std::size_t w) {
    synthetic::DiffractionParams g;
    g.frames = distinct, g.height = h, g.width = w, g.spots = 2000 * h * w / (4148 * 4362);
    g.gaps = true, g.seed = 2;
    synthetic::DiffractionDataset d = synthetic::generateDiffraction(g);
    auto reference = std::make_shared<SpotsInput>(), in = std::make_shared<SpotsInput>();
    const std::size_t bytes = d.frames.size() * dtypeSize(d.frames.dtype());
    in->data.frames = Array(DType::UInt16, {frames, h, w});
    for (std::size_t t = 0; t < frames; t += distinct)
        std::memcpy(in->data.frames.bytes() + t * (bytes / distinct), d.frames.bytes(),
                    std::min(distinct, frames - t) * (bytes / distinct));
    in->data.mask = d.mask;
    in->signalMask = false; // a streaming service keeps the signal pixels, not 1.8 GB of mask
    reference->data.frames = std::move(d.frames), reference->data.mask = std::move(d.mask);
    BenchCase b;
    b.input = in, b.referenceInput = reference;
    b.params = algorithm.defaultParams();
    b.work = static_cast<double>(frames);
    b.unit = "frames/s", b.endToEnd = true;
    b.description = std::to_string(frames) + " x " + std::to_string(h) + "x" + std::to_string(w) +
                    " uint16 from host memory, dispersion, end to end (frames/s from wall time: "
                    "copies and grouping included)";
    return b;
}

// seed and large (one image) from memory, stream and stream4m end to end.
class DiffractionBench : public BenchFacet {
  public:
    std::vector<std::string> sizes() const override {
        return {"seed", "large", "stream", "stream4m"};
    }
    BenchCase benchCase(const clscope::Algorithm& algorithm,
                        const std::string& size) const override;
};

BenchCase DiffractionBench::benchCase(const clscope::Algorithm& algorithm,
                                      const std::string& size) const {
    if (size == "stream") return streamCase(algorithm, 100, 2, 4148, 4362);
    if (size == "stream4m") return streamCase(algorithm, 400, 2, 2068, 2162);
    synthetic::DiffractionParams g;
    ParamSet params = algorithm.defaultParams();
    if (size == "seed") {
        g.frames = 32, g.height = 512, g.width = 1028, g.spots = 100;
    } else if (size == "large") {
        g.frames = 1, g.height = 4148, g.width = 4362, g.spots = 2000, g.gaps = true;
        params.set("threshold_algorithm", "dispersion_extended");
    } else {
        throw UsageError("spots: no bench size '" + size + "' (seed, large, stream, stream4m)");
    }
    g.seed = 2;
    synthetic::DiffractionDataset d = synthetic::generateDiffraction(g);
    auto in = std::make_shared<SpotsInput>();
    in->data.frames = std::move(d.frames);
    in->data.mask = std::move(d.mask);
    BenchCase b;
    b.input = in;
    b.params = params;
    b.work = static_cast<double>(g.frames * g.height * g.width);
    b.unit = "Gpixel/s", b.unitScale = 1e9;
    b.description = std::to_string(g.frames) + " x " + std::to_string(g.height) + "x" +
                    std::to_string(g.width) + " uint16, " + params.text("threshold_algorithm");
    return b;
}

} // namespace

std::shared_ptr<const Facet> benchFacet() {
    return std::make_shared<DiffractionBench>();
}

} // namespace clscope::spots
