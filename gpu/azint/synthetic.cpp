// azint's synthetic dataset (clscope-cli generate powder, the GUI's Generate dialog): powder
// rings in /entry/data/data with their geometry in /entry/processing/geometry, where
// `clscope-cli azint` finds it without --poni.
#include "core/azint/powder.hpp"
#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "core/synthetic/limits.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/facets.hpp"
#include "gpu/azint/geometry_source.hpp"
#include "gpu/facets/synthetic_facet.hpp"

namespace clscope::azint {

namespace {

std::vector<ParamSpec> specs() {
    using T = ParamSpec::Type;
    namespace lim = synthetic::limits;
    const PowderParams d;
    return {
        syntheticOption("frames", T::Int, d.frames, "Number of frames T", 1, lim::maxFrames),
        syntheticOption("height", T::Int, d.height, "Image height H", 1, lim::maxSide, "px"),
        syntheticOption("width", T::Int, d.width, "Image width W", 1, lim::maxSide, "px"),
        syntheticOption("rings", T::Int, d.rings, "Powder rings", 0, 1000),
        syntheticOption("background", T::Double, d.background, "Mean background counts per pixel",
                        0, lim::maxIntensity),
        syntheticOption("ring_intensity", T::Double, d.ringIntensity,
                        "Peak mean counts of the first ring", 0, lim::maxIntensity),
    };
}

std::string write(const ParamSet& o, std::uint64_t seed, Compression c, const std::string& path) {
    PowderParams p;
    p.seed = seed;
    p.frames = static_cast<std::size_t>(o.integer("frames"));
    p.height = static_cast<std::size_t>(o.integer("height"));
    p.width = static_cast<std::size_t>(o.integer("width"));
    p.rings = static_cast<std::size_t>(o.integer("rings"));
    p.background = o.number("background"), p.ringIntensity = o.number("ring_intensity");
    synthetic::checkGeneratedMemory("powder", {p.frames, p.height, p.width},
                                    2.0 + 8.0 * 3 / static_cast<double>(p.frames));
    const Geometry g = powderGeometry(p.height, p.width);
    const Array frames = powderFrames(p, g);
    H5Writer out(path); // only now: a run stopped while generating leaves nothing behind
    out.write(paths::frames, frames, c);
    writeFileGeometry(out, g);
    out.commit();
    return paths::frames + " " + shapeString(frames.shape()) + " uint16 with " +
           std::to_string(p.rings) + " rings, geometry in " + mask::paths::geometry;
}

class PowderSynthetic : public SyntheticFacet {
  public:
    std::vector<SyntheticKind> kinds() const override {
        return {{"powder", "Powder rings over a flat background, with the PONI geometry", specs(),
                 write, paths::frames}};
    }
};

} // namespace

std::shared_ptr<const Facet> syntheticFacet() {
    return std::make_shared<PowderSynthetic>();
}

} // namespace clscope::azint
