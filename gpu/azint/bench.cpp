// azint's bench facet: powder frames (core/azint/powder.hpp) at seed size (512 x 512 x 8),
// large (2048 x 2048 x 8) and stream, the performance target: 100 frames of 4096 x 4096 uint16
// from host memory, timed end to end (transfers count); the reference on its first 2 frames.
#include "core/azint/powder.hpp"
#include "core/errors.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/facets.hpp"
#include "gpu/facets/bench_facet.hpp"

#include <cstring>

namespace clscope::azint {

namespace {

struct Size {
    std::size_t side, frames, distinct; // distinct frames generated, repeated up to `frames`
};

Size sizeOf(const std::string& size) {
    if (size == "seed") return {512, 8, 8};
    if (size == "large") return {2048, 8, 2};
    if (size == "stream") return {4096, 100, 2};
    throw UsageError("azint: no bench size '" + size + "' (seed, large, stream)");
}

std::shared_ptr<AzintInput> powderInput(const Size& s, std::size_t frames) {
    PowderParams p;
    p.height = p.width = s.side, p.frames = std::min(s.distinct, frames);
    auto in = std::make_shared<AzintInput>();
    in->geometry = powderGeometry(s.side, s.side);
    in->geometryOrigin = "the bench's powder geometry";
    const Array distinct = powderFrames(p, in->geometry);
    in->data.frames = Array(DType::UInt16, {frames, s.side, s.side});
    const std::size_t bytes = distinct.byteSize();
    for (std::size_t t = 0; t < frames; t += p.frames)
        std::memcpy(in->data.frames.bytes() + t / p.frames * bytes, distinct.bytes(),
                    std::min(bytes, in->data.frames.byteSize() - t / p.frames * bytes));
    in->provenance = nlohmann::json::object();
    return in;
}

class PowderBench : public BenchFacet {
  public:
    std::vector<std::string> sizes() const override { return {"seed", "large", "stream"}; }
    BenchCase benchCase(const clscope::Algorithm& algorithm,
                        const std::string& size) const override {
        const Size s = sizeOf(size);
        BenchCase c;
        c.input = powderInput(s, s.frames);
        if (size == "stream") {
            c.referenceInput = powderInput(s, s.distinct);
            c.endToEnd = true;
            c.uploadBytes = double(s.frames * s.side * s.side * 2);
        }
        c.params = algorithm.defaultParams();
        c.work = double(s.frames);
        c.unit = "frames/s";
        c.description = c.input->describe() + ", 1000 q bins";
        return c;
    }
};

} // namespace

std::shared_ptr<const Facet> benchFacet() {
    return std::make_shared<PowderBench>();
}

} // namespace clscope::azint
