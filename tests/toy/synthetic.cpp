// The toy's synthetic dataset: `generate toyframes` in the suites that register the toy.
#include "gpu/facets/synthetic_facet.hpp"
#include "toy/algorithm.hpp"
#include "toy/facets.hpp"

#include <random>

namespace clscope::toy {

namespace {

std::string writeSynthetic(const ParamSet& o, std::uint64_t seed, Compression c,
                           const std::string& path) {
    const auto size = [&](const char* name) { return static_cast<std::size_t>(o.integer(name)); };
    Array frames(DType::UInt16, {size("frames"), size("height"), size("width")});
    std::mt19937_64 rng(seed);
    for (std::uint16_t& v : frames.as<std::uint16_t>())
        v = static_cast<std::uint16_t>(rng() % 1000);
    H5Writer out(path);
    out.write(paths::frames, frames, c);
    out.commit();
    return shapeString(frames.shape()) + " uint16 frames";
}

class ToySynthetic : public SyntheticFacet {
  public:
    std::vector<SyntheticKind> kinds() const override {
        using T = ParamSpec::Type;
        return {{"toyframes",
                 "Random uint16 frames for the toy",
                 {syntheticOption("frames", T::Int, 5, "Number of frames", 1, 1e6),
                  syntheticOption("height", T::Int, 4, "Frame height", 1, 1e4),
                  syntheticOption("width", T::Int, 3, "Frame width", 1, 1e4)},
                 writeSynthetic,
                 paths::frames}};
    }
};

} // namespace

std::shared_ptr<const Facet> syntheticFacet() {
    return std::make_shared<ToySynthetic>();
}

} // namespace clscope::toy
