// xpcs's synthetic dataset (clscope-cli generate xpcs, the GUI's Generate dialog, --demo xpcs).
#include "core/xpcs/synthetic.hpp"
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/synthetic/limits.hpp"
#include "gpu/facets/synthetic_facet.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/facets.hpp"

#include <cmath>
#include <map>

namespace clscope::xpcs {

namespace {

DType dtypeNamed(const std::string& name) {
    static const std::map<std::string, DType> types{{"uint8", DType::UInt8},
                                                    {"uint16", DType::UInt16},
                                                    {"uint32", DType::UInt32},
                                                    {"int32", DType::Int32},
                                                    {"float32", DType::Float32}};
    return types.at(name);
}

std::vector<ParamSpec> specs() {
    using T = ParamSpec::Type;
    namespace lim = synthetic::limits;
    const synthetic::XpcsParams d;
    ParamSpec dtype = syntheticOption("dtype", T::Choice, "uint8", "Frame element type");
    dtype.choices = {"uint8", "uint16", "uint32", "int32", "float32"};
    ParamSpec model = syntheticOption(
        "model", T::Choice, d.model,
        "brownian (diffusing particles, known D; the default) or seed (flat g2, the bench case)");
    model.choices = {"brownian", "seed"};
    const auto geometry = [](ParamSpec spec) { // the GUI folds these away
        spec.advanced = true;
        return spec;
    };
    return {
        syntheticOption("frames", T::Int, d.frames, "Number of frames T", 1, lim::maxFrames),
        syntheticOption("height", T::Int, d.height, "Frame height H", 1, lim::maxSide, "px"),
        syntheticOption("width", T::Int, d.width, "Frame width W", 1, lim::maxSide, "px"),
        syntheticOption("ring_width", T::Double, d.ringWidth,
                        "Ring width in pixels (label = r // width)", lim::minRingWidth,
                        lim::maxRingWidth, "px"),
        syntheticOption("intensity", T::Double, d.intensity, "Peak mean counts I0", 0,
                        lim::maxIntensity),
        dtype,
        syntheticOption("frame_time", T::Double, d.frameTime,
                        "Frame time in seconds (0: none written; brownian: 1 ms)", 0,
                        lim::maxFrameTime, "s"),
        model,
        syntheticOption("sparse", T::Bool, false,
                        "Frames in the sparse CSR layout at /entry/data/sparse (docs/SPARSE.md); "
                        "a low --intensity gives photon frames of low occupancy"),
        syntheticOption("diffusion", T::Double, d.diffusion,
                        "brownian: diffusion coefficient D in Å²/s", 0, 1e30, "Å²/s"),
        geometry(syntheticOption("distance", T::Double, d.distance,
                                 "brownian: sample-detector distance", 1e-6, 1e6, "m")),
        geometry(syntheticOption("pixel_size", T::Double, d.pixelSize, "brownian: pixel size",
                                 1e-12, 1, "m")),
        geometry(syntheticOption("wavelength", T::Double, d.wavelength, "brownian: wavelength",
                                 1e-15, 1, "m")),
    };
}

std::string write(const ParamSet& o, std::uint64_t seed, Compression c, const std::string& path) {
    synthetic::XpcsParams p;
    p.seed = seed;
    p.frames = static_cast<std::size_t>(o.integer("frames"));
    p.height = static_cast<std::size_t>(o.integer("height"));
    p.width = static_cast<std::size_t>(o.integer("width"));
    p.ringWidth = o.number("ring_width"), p.intensity = o.number("intensity");
    p.dtype = dtypeNamed(o.text("dtype")), p.frameTime = o.number("frame_time");
    p.model = o.text("model"), p.diffusion = o.number("diffusion");
    p.distance = o.number("distance"), p.pixelSize = o.number("pixel_size");
    p.wavelength = o.number("wavelength");
    const bool sparse = o.boolean("sparse");
    if (sparse && !dtypeIsInteger(p.dtype))
        throw UsageError("--sparse writes integer counts: --dtype " + o.text("dtype") +
                         " frames have none");
    const double rmax = std::hypot(static_cast<double>(p.height), static_cast<double>(p.width));
    if (rmax / p.ringWidth >= 2147483647.0)
        throw UsageError("--ring-width " + std::to_string(p.ringWidth) +
                         " gives labels beyond int32; use a wider ring");
    // frames, radii (double) and labels (int32) at once.
    synthetic::checkGeneratedMemory("xpcs", {p.frames, p.height, p.width},
                                    static_cast<double>(dtypeSize(p.dtype)) +
                                        12.0 / static_cast<double>(p.frames));
    const synthetic::XpcsDataset d = synthetic::generateXpcs(p);
    H5Writer out(path); // only now: a run stopped while generating leaves nothing behind
    const std::string frames = synthetic::writeXpcs(out, d, c, sparse);
    out.commit();
    return frames + ", " + paths::qmask + " with " + std::to_string(d.labels.bins().size()) +
           " bins";
}

class XpcsSynthetic : public SyntheticFacet {
  public:
    std::vector<SyntheticKind> kinds() const override {
        // The labels: every file holds them, whichever layout its frames are in.
        return {{"xpcs", "Frames and ring q-bin labels (seed 000)", specs(), write, paths::qmask}};
    }
};

} // namespace

std::shared_ptr<const Facet> syntheticFacet() {
    return std::make_shared<XpcsSynthetic>();
}

} // namespace clscope::xpcs
