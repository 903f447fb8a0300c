// spots's synthetic dataset (clscope-cli generate diffraction, the GUI's Generate dialog).
#include "core/spots/synthetic.hpp"
#include "core/io.hpp"
#include "core/synthetic/limits.hpp"
#include "gpu/facets/synthetic_facet.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"

namespace clscope::spots {

namespace {

std::vector<ParamSpec> specs() {
    using T = ParamSpec::Type;
    namespace lim = synthetic::limits;
    const synthetic::DiffractionParams d;
    return {
        syntheticOption("frames", T::Int, d.frames, "Number of frames T", 1, lim::maxFrames),
        syntheticOption("height", T::Int, d.height, "Image height H", 1, lim::maxSide, "px"),
        syntheticOption("width", T::Int, d.width, "Image width W", 1, lim::maxSide, "px"),
        syntheticOption("spots", T::Int, d.spots, "Spots per frame", 0, lim::maxSpots),
        syntheticOption("background", T::Double, d.background, "Mean background counts per pixel",
                        0, lim::maxIntensity),
        syntheticOption("spot_intensity", T::Double, d.spotIntensity, "Mean total counts per spot",
                        1e-9, lim::maxIntensity),
        syntheticOption("gaps", T::Bool, d.gaps,
                        "EIGER-like chip and module gaps, recorded in pixel_mask"),
    };
}

std::string write(const ParamSet& o, std::uint64_t seed, Compression c, const std::string& path) {
    synthetic::DiffractionParams p;
    p.seed = seed;
    p.frames = static_cast<std::size_t>(o.integer("frames"));
    p.height = static_cast<std::size_t>(o.integer("height"));
    p.width = static_cast<std::size_t>(o.integer("width"));
    p.spots = static_cast<std::size_t>(o.integer("spots"));
    p.background = o.number("background"), p.spotIntensity = o.number("spot_intensity");
    p.gaps = o.boolean("gaps");
    synthetic::checkGeneratedMemory("diffraction", {p.frames, p.height, p.width},
                                    2.0 + 9.0 / static_cast<double>(p.frames));
    const synthetic::DiffractionDataset d = synthetic::generateDiffraction(p);
    H5Writer out(path); // only now: a run stopped while generating leaves nothing behind
    synthetic::writeDiffraction(out, d, c);
    out.commit();
    std::size_t bad = 0;
    for (auto b : d.mask.bad)
        bad += b;
    return paths::frames + " " + shapeString(d.frames.shape()) + " uint16, " + paths::pixelMask +
           " with " + std::to_string(bad) + " masked pixels";
}

class DiffractionSynthetic : public SyntheticFacet {
  public:
    std::vector<SyntheticKind> kinds() const override {
        return {{"diffraction", "Poisson background with Gaussian spots (seed 002)", specs(), write,
                 paths::frames}};
    }
};

} // namespace

std::shared_ptr<const Facet> syntheticFacet() {
    return std::make_shared<DiffractionSynthetic>();
}

} // namespace clscope::spots
