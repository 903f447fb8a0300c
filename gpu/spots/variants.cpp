// The spots variants, declared once: their entries, checks and runs.
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "gpu/spots/recipes.hpp"
#include "gpu/spots/spots_gpu.hpp"

#include <chrono>

namespace clscope::spots {

namespace {

// The tile of local and extended (int + flag per pixel) and the column sums of the tile's
// rows (int count, up to 8-byte sum, 8-byte sum of squares) within the device's local memory.
Support tileFits(const DeviceInfo& device, const Params& params) {
    auto tuned = [&](const char* name) { // the tuning's, else the recipe's default
        const auto it = params.tuning.find(name);
        return it == params.tuning.end() ? std::stoi(spotsRecipe().tunable(name).defaultValue)
                                         : it->second;
    };
    const std::uint64_t width = std::uint64_t(tuned("TILE_X") + 2 * params.kernelX);
    const std::uint64_t bytes =
        width * (tuned("TILE_Y") + 2 * params.kernelY) * 5 + width * tuned("TILE_Y") * 20;
    if (bytes > device.localMemBytes)
        return {false, "its tile needs " + std::to_string(bytes) +
                           " bytes of local memory, the device has " +
                           std::to_string(device.localMemBytes)};
    return {};
}

} // namespace

Support supportsWindow(const Window& window, const DeviceInfo& device, const Params* params) {
    if (window.host())
        return device.isHost() ? Support{} : Support{false, "runs on the host only (--device cpu)"};
    if (device.isHost()) return {false, "an OpenCL variant: pick an ocl:N device"};
    if (!params) return {};
    const bool extended = params->method == Method::DispersionExtended;
    if (window.extended() && !extended)
        return {false,
                "extended computes dispersion_extended; use local, direct or sat for dispersion"};
    if (!window.extended() && extended)
        return {false, window.name + " computes dispersion; use extended for dispersion_extended"};
    if (window.tiled()) return tileFits(device, *params);
    return {};
}

namespace {

MaskRun maskOnHost(const Job& job) {
    MaskRun mask;
    const auto start = std::chrono::steady_clock::now();
    mask.signal = thresholdCpu(*job.input, *job.params, job.progress);
    mask.kernelMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    mask.timings.add("spots cpu threshold", mask.kernelMs, true);
    return mask;
}

// The spots of a signal mask (the mask kept where the parameters ask for it).
Result spotsOf(const Job& job, MaskRun mask) {
    const Input& in = *job.input;
    if (mask.pixels.size() != in.frames.frameCount())
        mask.pixels = signalPixels(mask.signal, in.frames.frameSize());
    if (!job.params->signalMask) mask.signal = {};
    if (!job.group) mask.spots = std::vector<Spot>{};
    const auto start = std::chrono::steady_clock::now();
    Result r = finishResult(in, std::move(mask.signal), std::move(mask.pixels), *job.params,
                            std::move(mask.spots));
    mask.timings.addHostPhase("spots result (host wall: lists sorted, grouping)", msSince(start));
    if (job.details) *job.details = std::move(mask);
    return r;
}

Variant<Job, Result, Window> variant(Window window, std::string label) {
    VariantEntry e;
    e.info.algorithm = "spots", e.info.id = window.name, e.info.label = std::move(label);
    e.info.kind = window.host() ? VariantKind::Host : VariantKind::OpenCL;
    e.info.needs = window.host() ? "host" : "OpenCL 1.2 (fp64 for exact tests)";
    e.info.preferred = window.host() || window.tiled(); // cpu, local, extended
    if (!window.host()) e.info.programs = {spotsRecipe().name()};
    const auto run = [window](const Job& job) {
        return spotsOf(job, window.host() ? maskOnHost(job) : maskOnDevice(job, window));
    };
    const auto accepts = [window](const Job& job) {
        return supportsWindow(window, job.device, job.params);
    };
    return {std::move(e), run, accepts, window};
}

} // namespace

const VariantSet<Job, Result, Window>& variantSet() {
    static const VariantSet<Job, Result, Window> set(
        "spots",
        {variant({Sums::Host, "cpu"},
                 "host reference, C++ threads (dispersion and dispersion_extended)"),
         variant({Sums::Local, "local"},
                 "dispersion, window sums from a tile in local memory (the seed's kernel, fixed)"),
         variant({Sums::Direct, "direct"},
                 "dispersion, window sums read straight from global memory"),
         variant({Sums::Sat, "sat"}, "dispersion, summed-area tables (integer, wrap-safe)"),
         variant({Sums::Extended, "extended"},
                 "dispersion_extended: dispersive pixels, erosion, background mean")});
    return set;
}

} // namespace clscope::spots
