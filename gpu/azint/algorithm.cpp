// azint through the algorithm interface: the frames, mask and pixel mask roles, the §4 options,
// the geometry (--poni, --expt or the file's), the variants of gpu/azint.
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/facets.hpp"

#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "core/input/provenance.hpp"
#include "core/io.hpp"
#include "core/stream/live_frames.hpp"
#include "gpu/azint/azint_gpu.hpp"
#include "gpu/azint/geometry_source.hpp"
#include "gpu/azint/recipes.hpp"

namespace clscope::azint {

namespace {

// "LO,HI" (or null: none); UsageError naming the parameter otherwise.
std::optional<Range> rangeOf(const ParamSet& set, const std::string& name) {
    if (!set.has(name)) return std::nullopt;
    const std::string text = set.text(name);
    const auto comma = text.find(',');
    try {
        std::size_t a = 0, b = 0;
        const std::string hi = comma == std::string::npos ? "" : text.substr(comma + 1);
        const Range r{std::stod(text.substr(0, comma), &a), std::stod(hi, &b)};
        if (a == comma && b == hi.size()) return r;
    } catch (const std::exception&) {
    }
    throw UsageError("azint: " + name + " must be LO,HI (two numbers), not '" + text + "'");
}

PixelMask readMaskRole(const InputSources& sources, const InputRole& role, std::size_t height,
                       std::size_t width, std::vector<InputRole>& read) {
    if (sources.disabled.count(role.id)) return {};
    const DataLocation at = sources.locate(role);
    const bool given = sources.overrides.count(role.id) > 0;
    const auto file = sources.open(at.file);
    // The mask only when given; the pixel mask also when the input has one (a group: refused).
    if (!given && (role.id == "mask" || !file->hasObject(at.path))) return {};
    read.push_back(role);
    return readPixelMask(*file, at.path, height, width);
}

Array readStack(const InputSources& sources, const InputRole& framesRole) {
    if (sources.frames.all() && !sources.live)
        return readFrames(H5Reader(sources.locate(framesRole).file),
                          sources.locate(framesRole).path);
    const auto stream = openFrames(sources, framesRole); // --frames or a stream: only those
    return stream->read(0, stream->frameCount());
}

} // namespace

Params Algorithm::parameters(const ParamSet& set) const {
    Params p;
    p.unit = unitFromName(set.text("unit"));
    p.bins = static_cast<int>(set.integer("bins"));
    p.azimuthBins = static_cast<int>(set.integer("azimuth_bins"));
    p.radialRange = rangeOf(set, "radial_range");
    p.azimuthRange = rangeOf(set, "azimuth_range");
    p.solidAngle = set.boolean("solid_angle");
    if (set.has("polarization")) p.polarization = set.number("polarization");
    checkParams(p);
    return p;
}

Algorithm::Algorithm()
    : TypedAlgorithm({"azint", "Azimuthal integration I(q) and I(q, χ) per frame (pyFAI's)"}) {
    for (auto facet : {splitFacet(), passesFacet(), syntheticFacet(), benchFacet(), labFacet(),
                       resultReaderFacet(), streamFacet(), resultCommandsFacet()})
        add(std::move(facet));
}

std::vector<InputRole> Algorithm::inputRoles() const {
    InputRole frames =
        makeRole("frames", "--data", paths::frames, "frames (T,H,W) or one image (H,W)");
    frames.stack = true, frames.layout = InputRole::Layout::Frames, frames.title = "frames / image";
    InputRole mask = makeRole("mask", "--mask", paths::pixelMask,
                              "mask FILE[:PATH], non-zero = left out (read only when given)");
    mask.optional = true, mask.otherFile = true;
    mask.layout = InputRole::Layout::IntegerImage, mask.hints = {"mask"};
    InputRole pixelMask = makeRole(
        "pixel_mask", "--pixel-mask", paths::pixelMask,
        "NXmx pixel mask FILE[:PATH], non-zero = bad (default: the input's, when present)");
    pixelMask.optional = true, pixelMask.otherFile = true;
    pixelMask.disableFlag = "--no-pixel-mask", pixelMask.title = "pixel mask";
    pixelMask.layout = InputRole::Layout::IntegerImage, pixelMask.hints = {"pixel_mask"};
    return {frames, mask, pixelMask};
}

std::vector<ParamSpec> Algorithm::parameterSpecs() const {
    using T = ParamSpec::Type;
    std::vector<ParamSpec> s;
    s.push_back(makeOption(
        "poni", T::Text, nullptr, "PONI file", "--poni",
        "geometry: a pyFAI PONI file (default: the input's /entry/processing/geometry)"));
    s.push_back(makeOption("expt", T::Text, nullptr, "DIALS experiment list", "--expt",
                           "geometry: a DIALS .expt (single panel), instead of --poni"));
    s.push_back(makeOption("bins", T::Int, 1000, "radial bins", "--bins", "N radial bins"));
    s.back().min = 1, s.back().max = 1 << 20;
    s.push_back(
        makeOption("unit", T::Choice, "q_nm^-1", "radial unit", "--unit", "pyFAI's unit names"));
    s.back().choices = {"q_nm^-1", "q_A^-1", "2th_deg", "r_mm"};
    s.push_back(makeOption("radial_range", T::Text, nullptr, "radial range", "--radial-range",
                           "LO,HI in the unit (default: the unmasked pixels' min..max)"));
    s.push_back(makeOption("azimuth_bins", T::Int, 0, "azimuthal bins", "--azimuth-bins",
                           "M > 0: a 2D cake of M x N bins; 0: 1D"));
    s.back().min = 0, s.back().max = 1 << 16;
    s.push_back(makeOption("azimuth_range", T::Text, nullptr, "azimuth range", "--azimuth-range",
                           "LO,HI in degrees (default -180,180)", "deg"));
    s.push_back(makeOption("solid_angle", T::Bool, false, "solid angle", "--solid-angle",
                           "normalise by pyFAI's solid angle"));
    s.push_back(makeOption("polarization", T::Double, nullptr, "polarisation factor",
                           "--polarization",
                           "pyFAI's polarization_factor P in [-1, 1] (default: no correction)"));
    s.back().min = -1, s.back().max = 1;
    return s;
}

std::vector<VariantEntry> Algorithm::variants() const {
    return variantSet().entries();
}

std::vector<ProgramRecipe> Algorithm::recipes() const {
    return azint::recipes();
}

std::shared_ptr<AzintInput> readBesideFrames(const clscope::Algorithm& algorithm,
                                             const InputSources& sources, const ParamSet& params,
                                             std::size_t height, std::size_t width) {
    const InputRole framesRole = algorithm.role("frames");
    auto in = std::make_shared<AzintInput>();
    std::vector<InputRole> read{framesRole};
    in->data.mask = readMaskRole(sources, algorithm.role("mask"), height, width, read);
    in->data.pixelMask = readMaskRole(sources, algorithm.role("pixel_mask"), height, width, read);
    const GeometrySource g =
        resolveGeometry(params, *sources.open(sources.locate(framesRole).file), height, width,
                        sources.live ? &sources.live->start() : nullptr);
    in->geometry = g.geometry, in->geometryOrigin = g.origin;
    in->provenance = inputProvenance(sources, read);
    in->provenance["geometry"] = g.origin;
    return in;
}

std::shared_ptr<const AlgorithmInput> Algorithm::read(const InputSources& sources,
                                                      const ParamSet& params) const {
    (void)parameters(params); // bad parameters: a usage error before reading anything
    Array frames = readStack(sources, role("frames"));
    auto in = readBesideFrames(*this, sources, params, frames.height(), frames.width());
    in->data.frames = std::move(frames);
    checkInput(in->data);
    return in;
}

Support Algorithm::supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                                const AzintInput* input, const Params* params) const {
    const Job job{device, input ? &input->data : nullptr, nullptr, params};
    return variantSet().supports(variant, device, &job);
}

std::shared_ptr<AzintResult> Algorithm::runWith(const RunRequest& request, const AzintInput& in,
                                                Params params, const Progress& progress) const {
    const Job job{request.device, &in.data,         &in.geometry,  &params,
                  progress,       request.programs, request.tuning};
    RunOutput out = variantSet().find(request.variant).run(job);
    auto r = std::make_shared<AzintResult>();
    r->result = std::move(out.result);
    r->info.timings = std::move(out.timings);
    return r;
}

} // namespace clscope::azint
