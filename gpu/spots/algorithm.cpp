// spots through the algorithm interface: input roles, DIALS-named parameters with the
// DESIGN.md §4 flags, variants and the /spots output layout.
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"
#include "gpu/spots/run_types.hpp"

#include "core/azint/expt.hpp"
#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "core/input/provenance.hpp"
#include "core/json_parse.hpp"
#include "gpu/spots/recipes.hpp"
#include "gpu/spots/spots_gpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <optional>

namespace clscope::spots {

namespace {

template <class T>
void writeImage(H5Writer& out, const std::string& path, const std::vector<T>& values,
                const Shape& shape) {
    Array a(dtypeOf<T>(), shape);
    std::copy(values.begin(), values.end(), a.as<T>().begin());
    out.write(path, a, Compression::Gzip);
}

void writeDebug(H5Writer& out, const std::string& group, const DebugImages& d, const Shape& shape) {
    writeImage(out, group + "/mean", d.mean, shape);
    writeImage(out, group + "/variance", d.variance, shape);
    writeImage(out, group + "/dispersion", d.dispersion, shape);
    writeImage(out, group + "/sigma_b", d.sigmaB, shape);
    writeImage(out, group + "/sigma_s", d.sigmaS, shape);
    writeImage(out, group + "/global", d.global, shape);
    writeImage(out, group + "/final", d.final, shape);
}

// global_threshold: a number >= 0 or "auto".
void parseGlobalThreshold(const nlohmann::json& value, Params& p) {
    if (value.is_number()) {
        p.globalThreshold = value.get<double>();
        return;
    }
    const std::string text = value.get<std::string>();
    if (text == "auto") {
        p.globalAuto = true;
        return;
    }
    try {
        std::size_t used = 0;
        p.globalThreshold = std::stod(text, &used);
        if (used == text.size()) return;
    } catch (const std::exception&) {
    }
    throw UsageError("spots: global_threshold must be a number >= 0 or 'auto', got '" + text + "'");
}

// /signal: the dense mask as kept, else frame by frame from the pixel lists (a long stream's
// mask never lies in memory whole).
void writeSignal(H5Writer& out, const std::string& path, const Result& r) {
    if (!r.signal.empty() || r.shape.size() != 3)
        return writeImage(out, path, denseSignal(r), r.shape);
    out.writeFrames(path, DType::UInt8, r.shape, Compression::Gzip,
                    [&](std::size_t t, Array& frame) {
                        std::fill_n(frame.bytes(), frame.byteSize(), std::byte{0});
                        for (const std::uint32_t k : r.pixels[t])
                            frame.bytes()[k] = std::byte{1};
                    });
}

// /per_image: the five statistics, F values each (float64, d_min in Å, -1 where DIALS gives none).
void writePerImage(H5Writer& out, const std::string& group, const PerImageStats& s) {
    const auto put = [&](const char* name, const auto& values) {
        Array a(DType::Float64, {values.size()});
        std::copy(values.begin(), values.end(), a.as<double>().begin());
        out.write(group + "/" + name, a);
    };
    put("n_spots_total", s.nSpotsTotal);
    put("n_spots_no_ice", s.nSpotsNoIce);
    put("n_spots_4A", s.nSpots4A);
    put("total_intensity", s.totalIntensity);
    put("estimated_d_min", s.estimatedDMin);
    out.setAttribute(group + "/estimated_d_min", "units", "angstrom");
}

// The experiment list the `expt` parameter names, if one is given.
std::optional<std::string> exptFile(const nlohmann::json& parameters) {
    if (!parameters.contains("expt") || !parameters["expt"].is_string()) return std::nullopt;
    std::string file = parameters["expt"].get<std::string>();
    if (file.empty()) return std::nullopt;
    return file;
}

// The experiment list a run's parameters named.
std::optional<std::string> runExpt(const RunInfo& info) {
    if (info.parametersJson.empty()) return std::nullopt;
    return exptFile(parseJsonQuietly(info.parametersJson));
}

} // namespace

std::optional<PerImageStats> SpotsResult::perImage() const {
    const auto file = runExpt(info);
    return file ? std::optional(perImageStats(result, azint::readExpt(*file))) : std::nullopt;
}

std::optional<azint::ExptGrid> SpotsResult::exptGrid() const {
    const auto file = runExpt(info);
    return file ? azint::readExptGrid(*file) : std::nullopt;
}

void SpotsResult::write(H5Writer& out, const std::string& group) const {
    writeSignal(out, group + "/signal", result);
    const std::size_t n = result.spots.size();
    Array frame(DType::Int32, {n}), npix(DType::Int32, {n}), bbox(DType::Int32, {n, 4});
    Array x(DType::Float64, {n}), y(DType::Float64, {n}), intensity(DType::Float64, {n});
    for (std::size_t i = 0; i < n; ++i) {
        const Spot& s = result.spots[i];
        frame.as<std::int32_t>()[i] = s.frame, npix.as<std::int32_t>()[i] = s.npix;
        x.as<double>()[i] = s.x, y.as<double>()[i] = s.y, intensity.as<double>()[i] = s.intensity;
        const std::int32_t box[4] = {s.x0, s.y0, s.x1, s.y1};
        std::copy(box, box + 4, bbox.as<std::int32_t>().begin() + 4 * i);
    }
    out.write(group + "/frame", frame);
    out.write(group + "/x", x);
    out.write(group + "/y", y);
    out.write(group + "/npix", npix);
    out.write(group + "/intensity", intensity);
    out.write(group + "/bbox", bbox);
    if (debug) writeDebug(out, group + "/debug", *debug, result.shape);
    if (const auto stats = perImage()) writePerImage(out, group + "/per_image", *stats);
    writeProvenance(out, group, {info.device, info.variant, info.parametersJson, info.kernelMs});
}

Params Algorithm::parameters(const ParamSet& set) const {
    Params p;
    p.method = methodFromName(set.text("threshold_algorithm"));
    p.gain = set.number("gain");
    const auto kernel = set.intList("kernel_size");
    if (kernel.size() != 2) throw UsageError("spots: kernel_size takes two values KX,KY");
    p.kernelX = static_cast<int>(kernel[0]), p.kernelY = static_cast<int>(kernel[1]);
    p.sigmaBackground = set.number("sigma_background");
    p.sigmaStrong = set.number("sigma_strong");
    p.minLocal = static_cast<int>(set.integer("min_local"));
    parseGlobalThreshold(set.get("global_threshold"), p);
    p.minSpotSize = static_cast<int>(set.integer("min_spot_size"));
    p.maxSpotSize = static_cast<int>(set.integer("max_spot_size"));
    p.maxSeparation = set.number("max_separation");
    p.threeD = set.boolean("three_d");
    checkParams(p);
    return p;
}

Algorithm::Algorithm()
    : TypedAlgorithm({"spots", "DIALS dispersion spot finding: signal pixels, then spots"}) {
    for (auto facet : {splitFacet(), passesFacet(), streamFacet(), syntheticFacet(), benchFacet(),
                       labFacet(), outputsFacet(), layoutsFacet(), resultReaderFacet()})
        add(std::move(facet));
}

std::vector<InputRole> Algorithm::inputRoles() const {
    InputRole mask = makeRole("pixel_mask", "--mask", paths::pixelMask,
                              "NXmx pixel mask FILE[:PATH], non-zero = bad (default: the input's, "
                              "when present)");
    mask.optional = true, mask.otherFile = true;
    mask.layout = InputRole::Layout::IntegerImage, mask.title = "pixel mask";
    mask.hints = {"pixel_mask", "mask"};
    InputRole frames =
        makeRole("frames", "--data", paths::frames, "frames (T,H,W) or one image (H,W)");
    frames.stack = true, frames.layout = InputRole::Layout::Frames, frames.title = "frames / image";
    return {frames, mask};
}

// DIALS' names (spotfinder.threshold.dispersion.*, spotfinder.filter.*); the threshold
// algorithm is "threshold_algorithm" because "algorithm" is a provenance key of --params.
std::vector<ParamSpec> Algorithm::parameterSpecs() const {
    using T = ParamSpec::Type;
    std::vector<ParamSpec> s;
    s.push_back(makeOption("threshold_algorithm", T::Choice, "dispersion", "algorithm",
                           "--algorithm", "DIALS threshold algorithm"));
    s.back().choices = {"dispersion", "dispersion_extended"};
    s.push_back(makeOption("gain", T::Double, 1.0, "gain", "--gain",
                           "detector gain (1: DIALS without a gain map)"));
    s.back().min = 1e-6;
    s.push_back(makeOption("kernel_size", T::IntList, nlohmann::json::array({3, 3}), "kernel size",
                           "--kernel-size", "window half-widths KX,KY: window (2KX+1) x (2KY+1)",
                           "px"));
    s.back().min = 1, s.back().max = 64;
    s.push_back(makeOption("sigma_background", T::Double, 6.0, "σ background", "--sigma-b",
                           "dispersion threshold"));
    s.back().min = 0;
    s.push_back(makeOption("sigma_strong", T::Double, 3.0, "σ strong", "--sigma-s",
                           "strong pixel threshold"));
    s.back().min = 0;
    s.push_back(makeOption("min_local", T::Int, 2, "min local", "--min-local",
                           "valid pixels needed in the window (<= 0: all)"));
    s.push_back(
        makeOption("global_threshold", T::Text, 0, "global threshold", "--global-threshold",
                   "pixels must exceed it: a number >= 0 or 'auto' (DIALS' elbow estimate)"));
    s.push_back(makeOption("min_spot_size", T::Int, 3, "min spot size", "--min-spot-size",
                           "smallest spot", "px"));
    s.back().min = 0;
    s.push_back(makeOption("max_spot_size", T::Int, 1000, "max spot size", "--max-spot-size",
                           "largest spot", "px"));
    s.back().min = 0;
    s.push_back(makeOption("max_separation", T::Double, 2.0, "max peak–centroid distance", "",
                           "spots whose peak pixel centre is farther from the centroid are dropped "
                           "(DIALS filter.max_separation; --params only)",
                           "px"));
    s.back().min = 0, s.back().advanced = true;
    s.push_back(
        makeOption("three_d", T::Bool, false, "3D spots", "--3d", "6-connected across frames"));
    s.push_back(makeOption("debug", T::Bool, false, "debug images", "--debug",
                           "also write the debug images"));
    s.back().advanced = true;
    s.push_back(
        makeOption("phil", T::Text, nullptr, "DIALS phil file", "--phil",
                   "also write the parameters as a DIALS find_spots.phil snippet to this file"));
    s.back().advanced = true;
    s.push_back(makeOption("expt", T::Text, nullptr, "DIALS experiment list", "--expt",
                           "geometry (a DIALS .expt) for DIALS' per-image analysis of the spots "
                           "(/spots/per_image)"));
    s.back().advanced = true;
    return s;
}

std::vector<VariantEntry> Algorithm::variants() const {
    return variantSet().entries();
}

std::vector<ProgramRecipe> Algorithm::recipes() const {
    return {spotsRecipe()};
}

std::shared_ptr<SpotsInput> readMaskRole(const InputSources& sources, std::size_t height,
                                         std::size_t width) {
    const Algorithm algorithm;
    auto in = std::make_shared<SpotsInput>();
    std::vector<InputRole> read{algorithm.role("frames")};
    if (!sources.disabled.count("pixel_mask")) {
        const InputRole maskRole = algorithm.role("pixel_mask");
        const DataLocation mask = sources.locate(maskRole);
        const auto file = sources.open(mask.file);
        const bool given = sources.overrides.count("pixel_mask") > 0;
        if (given || file->hasObject(mask.path)) { // a group there: refused
            in->data.mask = readPixelMask(*file, mask.path, height, width);
            read.push_back(maskRole);
        }
    }
    in->provenance = inputProvenance(sources, read);
    return in;
}

namespace {

// A bad or mismatched experiment list is bad input before any work (InputError naming it).
void checkExpt(const ParamSet& params, std::size_t height, std::size_t width) {
    const auto file = exptFile(params.values());
    if (!file) return;
    const azint::Geometry g = azint::readExpt(*file);
    azint::readExptGrid(*file); // a malformed grid_size refused before the run too
    if (g.height == height && g.width == width) return;
    throw InputError(params.text("expt") + ": the detector is " + std::to_string(g.width) + "x" +
                     std::to_string(g.height) + " pixels, the frames " + std::to_string(width) +
                     "x" + std::to_string(height));
}

} // namespace

std::shared_ptr<const AlgorithmInput> Algorithm::read(const InputSources& sources,
                                                      const ParamSet& params) const {
    (void)parameters(params); // bad parameters: a usage error before reading anything
    const InputRole framesRole = role("frames");
    const DataLocation frames = sources.locate(framesRole);
    Array stack;
    if (sources.frames.all() && !sources.live) {
        stack = readFrames(H5Reader(frames.file), frames.path);
    } else { // --frames or a stream: only those, in order
        const auto stream = openFrames(sources, framesRole);
        stack = stream->read(0, stream->frameCount());
    }
    auto in = readMaskRole(sources, stack.height(), stack.width());
    checkExpt(params, stack.height(), stack.width());
    in->data.frames = std::move(stack);
    checkInput(in->data);
    return in;
}

Support Algorithm::supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                                const SpotsInput*, const Params* params) const {
    const auto* v = variantSet().get(variant.info.id);
    return v ? v->accepts({device, nullptr, params}) : variant.supports(device);
}

std::shared_ptr<SpotsResult> Algorithm::runWith(const RunRequest& request, const SpotsInput& in,
                                                Params p, const Progress& progress) const {
    p.tuning = request.tuning;
    p.signalMask = in.signalMask;
    MaskRun details;
    auto r = std::make_shared<SpotsResult>();
    const bool band = in.band != nullptr; // grouped by joinBands over the whole frame
    r->result =
        variantSet()
            .find(request.variant)
            .run({request.device, &in.data, &p, progress, request.programs, &details, !band});
    r->info.variant = request.variant;
    r->info.timings = details.timings.records();
    r->note = details.note;
    r->band = in.band;
    if (request.params.boolean("debug")) {
        r->debug.emplace();
        thresholdCpu(in.data, p, {}, &*r->debug);
    }
    return r;
}

RunWork runWork(const SpotsInput& input) {
    const Array& frames = input.data.frames;
    const double pixels = double(frames.height() * frames.width());
    const double perFrame = pixels * double(frames.frameCount());
    // Per pixel: n, Σx and Σx² over the window from summed-area tables (2 prefix adds and 3
    // corner adds each, 15) and the square (1); the dispersion and strong tests (12).
    constexpr double operationsPerPixel = 15 + 1 + 12;
    RunWork w;
    w.bytes = double(frames.byteSize()) + (input.data.mask.bad.empty() ? 0 : pixels) +
              (input.signalMask ? perFrame : 0);
    w.operations = operationsPerPixel * perFrame;
    return w;
}

Deviation Algorithm::compareWith(const SpotsResult& result, const SpotsResult& reference) const {
    const auto& got = result.result;
    const auto& want = reference.result;
    Deviation d;
    d.metric = "signal pixels that differ (masks must be identical)";
    d.tolerance = 0;
    // A reference on the leading frames only (bench stream) checks that prefix.
    const std::size_t frames = want.pixels.size();
    const bool samePlane =
        got.shape.size() == want.shape.size() &&
        std::equal(got.shape.end() - std::min<std::size_t>(2, got.shape.size()), got.shape.end(),
                   want.shape.end() - std::min<std::size_t>(2, want.shape.size()));
    if (!samePlane || got.pixels.size() < frames) {
        d.pass = false, d.note = "signal masks of different sizes";
        return d;
    }
    const std::size_t w = want.shape.back(),
                      plane = w * (want.shape.size() >= 2 ? want.shape[want.shape.size() - 2] : 1);
    d.compared = plane * frames;
    for (std::size_t t = 0; t < frames; ++t) {
        const auto& a = got.pixels[t];
        const auto& b = want.pixels[t];
        std::vector<std::uint32_t> differ;
        std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(),
                                      std::back_inserter(differ));
        if (!differ.empty() && d.beyond == 0) {
            d.firstIndex = static_cast<long long>(t * plane + differ.front());
            d.firstWhere = "frame " + std::to_string(t) + ", row " +
                           std::to_string(differ.front() / w) + ", column " +
                           std::to_string(differ.front() % w);
        }
        d.beyond += differ.size();
    }
    d.maxDeviation = d.beyond ? 1 : 0;
    d.pass = d.beyond == 0;
    d.note = got.pixels.size() > frames
                 ? "checked on the first " + std::to_string(frames) + " of " +
                       std::to_string(got.pixels.size()) + " frames"
                 : std::to_string(got.spots.size()) + " spots vs " +
                       std::to_string(want.spots.size()) + " in the reference";
    return d;
}

} // namespace clscope::spots
