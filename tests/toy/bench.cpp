// The toy's bench cases: seed (16 frames) and large (256), 32x32 uint16.
#include "gpu/facets/bench_facet.hpp"
#include "toy/algorithm.hpp"
#include "toy/facets.hpp"

#include <random>

namespace clscope::toy {

namespace {

class ToyBench : public BenchFacet {
  public:
    BenchCase benchCase(const Algorithm& algorithm, const std::string& size) const override {
        const std::size_t frames = size == "large" ? 256 : 16;
        Array a(DType::UInt16, {frames, 32, 32});
        std::mt19937 rng(7);
        for (auto& v : a.as<std::uint16_t>())
            v = static_cast<std::uint16_t>(rng() % 65536);
        BenchCase c;
        c.input = makeFrameSumsInput(std::move(a));
        c.params = algorithm.defaultParams();
        c.work = double(frames) * 32 * 32, c.unit = "pixels/s";
        c.description = std::to_string(frames) + " x 32x32 uint16";
        return c;
    }
};

} // namespace

std::shared_ptr<const Facet> benchFacet() {
    return std::make_shared<ToyBench>();
}

} // namespace clscope::toy
