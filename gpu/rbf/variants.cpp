// The rbf variants: registry entries, support checks with reasons, tolerances, default tuning
// and evaluate(), the dispatcher over them.
#include "core/errors.hpp"
#include "gpu/rbf/rbf_gpu.hpp"
#include "gpu/rbf/recipes.hpp"
#include "gpu/rbf/runner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace clscope::rbf {

namespace {

bool isDirect(const std::string& id) {
    return id == "tiled" || id == "tiled-fast" || id == "fp64";
}

Support needsFp64(const DeviceInfo& d) {
    if (!d.fp64) return {false, "needs fp64 (cl_khr_fp64) on the device"};
    return {};
}

// seed: one work-item per (target, source) pair in a SEED_SX x N work-group.
Support seedLimit(const DeviceInfo& d, std::size_t sources) {
    const std::size_t sx = 16;
    std::size_t most = d.maxWorkGroupSize / sx;
    if (d.maxWorkItemSizes.size() > 1) most = std::min(most, d.maxWorkItemSizes[1]);
    // terms table (complex: 8 bytes), sources and targets in local memory
    most = std::min<std::size_t>(most, d.localMemBytes / (sx * 8 + 20));
    if (sources <= most) return {};
    return {false, "the seed kernel runs one work-item per (target, source) pair in a 16 x N "
                   "work-group: " +
                       std::to_string(sources) + " sources exceed the " + std::to_string(most) +
                       " that " + d.spec + " allows (use tiled)"};
}

Support separableLimit(const Problem& p, const Params& params) {
    if (params.kernel != Kernel::Gaussian)
        return {false, "separable factorises the Gaussian only (kernel is " +
                           kernelName(params.kernel) + ")"};
    if (!p.targets.planes)
        return {false, "separable needs the plane grid targets (--planes N), not a target list"};
    return {};
}

// The longest distance a (target, source) pair can have: the diagonal of the box around the
// sources and targets (plane targets lie in the unit cube).
double longestDistance(const Problem& p) {
    std::array<double, 3> lo{}, hi{};
    bool any = false;
    const auto take = [&](const double* x) {
        for (int d = 0; d < 3; ++d)
            lo[d] = any ? std::min(lo[d], x[d]) : x[d], hi[d] = any ? std::max(hi[d], x[d]) : x[d];
        any = true;
    };
    for (std::size_t i = 0; i < p.sources.size(); i += 3)
        take(&p.sources[i]);
    const std::vector<double>& points = p.targets.points;
    if (p.targets.planes) {
        const double corners[2][3] = {{0, 0, 0}, {1, 1, 1}};
        take(corners[0]), take(corners[1]);
    }
    for (std::size_t i = 0; !p.targets.planes && i < points.size(); i += 3)
        take(&points[i]);
    double squares = 0;
    for (int d = 0; d < 3; ++d)
        squares += (hi[d] - lo[d]) * (hi[d] - lo[d]);
    return std::sqrt(squares);
}

std::string number(double value) {
    std::ostringstream out;
    out.precision(3);
    out << value;
    return out.str();
}

// What the float variants can hold: r^2 finite in fp32, and Helmholtz's phase k r with its
// fp32 error within the variant's tolerance. On random problems in the unit cube scaled up, the
// relative deviation from float64 grew as about 1.4e-8 k R (k R = 1.7e3: 2.5e-5; 1.7e5:
// 2.3e-3); k R up to tolerance / 2e-8 keeps a margin of about 1.4 (tiled: 500; the tests'
// k = 200 case, k R = 415, stays on tiled within 1e-5).
Support floatRange(const std::string& variant, const Problem& p, const Params& params) {
    const double longest = longestDistance(p);
    if (longest * longest > 1e37)
        return {false, "pairs up to " + number(longest) +
                           " apart: r² overflows fp32 (at most about 3.4e38); use fp64 or cpu"};
    const double phase = params.wavenumber * longest,
                 most = tolerance(variant, params.kernel) / 2e-8;
    if (params.kernel == Kernel::Helmholtz && phase > most)
        return {false, "Helmholtz phase k·r up to " + number(phase) + " (k " +
                           number(params.wavenumber) + ", pairs up to " + number(longest) +
                           " apart): fp32 keeps it within the tolerance " +
                           number(tolerance(variant, params.kernel)) + " up to k·r " +
                           number(most) + "; use fp64 or cpu"};
    return {};
}

} // namespace

const std::vector<std::string>& variantIds() {
    static const std::vector<std::string> ids{"seed", "tiled",     "tiled-fast",
                                              "fp64", "separable", "cpu"};
    return ids;
}

double tolerance(const std::string& variant, Kernel kernel) {
    if (variant == "cpu" || variant == "fp64") return toleranceFp64;
    if (variant == "tiled-fast" && kernel == Kernel::Helmholtz) return toleranceFast;
    return toleranceFp32;
}

std::map<std::string, int> defaultTuning(const std::string& variant, const DeviceInfo& device) {
    const bool gpu = device.type == "GPU";
    if (variant == "seed") return {{"SEED_SX", 16}}; // the seed's SX
    if (variant == "separable") // CPU devices: fewer, larger work-items (PoCL ~5x faster)
        return gpu ? Tuning{{"SEP_TS", 16}, {"SEP_WPT", 4}, {"SEP_KT", 16}}
                   : Tuning{{"SEP_TS", 8}, {"SEP_WPT", 8}, {"SEP_KT", 8}};
    if (variant == "fp64") return {{"RBF_WG", gpu ? 128 : 64}, {"RBF_TPW", 2}, {"RBF_UNROLL", 4}};
    if (isDirect(variant))
        return {{"RBF_WG", gpu ? 128 : 64}, {"RBF_TPW", 4}, {"RBF_UNROLL", gpu ? 8 : 4}};
    return {};
}

std::map<std::string, int> runTuning(const std::string& variant, const DeviceInfo& device,
                                     const Problem& problem, const Params& params) {
    std::map<std::string, int> tuning = defaultTuning(variant, device);
    // Helmholtz keeps twice the registers per target (complex sums): 2 targets per work-item
    // on GPUs (H200, 10^6 x 10^5: 122.9 ms against 125.2 ms with 4; docs/PERFORMANCE.md).
    if (device.type == "GPU" && params.kernel == Kernel::Helmholtz && isDirect(variant))
        tuning["RBF_TPW"] = 2;
    if (variant == "seed") tuning["SEED_N"] = static_cast<int>(problem.sourceCount());
    for (const auto& [name, value] : params.tuning)
        tuning[name] = value;
    return tuning;
}

std::vector<VariantEntry> variantEntries() {
    const auto entry = [](std::string id, std::string label, VariantKind kind, std::string needs,
                          bool preferred) {
        DeviceInfo gpu;
        gpu.type = "GPU";
        VariantEntry e{{"rbf", id, label, kind, needs,
                        nlohmann::json(defaultTuning(id, gpu)).dump(), preferred, programsOf(id)},
                       {}};
        if (id == "fp64") e.extraCheck = needsFp64;
        return e;
    };
    return {
        entry("seed", "one work-item per target-source pair in local tiles (the seed's kernel)",
              VariantKind::OpenCL, "OpenCL 1.2, N <= max work-group size / 16", false),
        entry("tiled",
              "work-item per 4 targets, sources staged through local memory, accurate maths",
              VariantKind::OpenCL, "OpenCL 1.2", true),
        entry("tiled-fast", "tiled with native exp2/rsqrt/sin/cos and a pre-scaled exponent",
              VariantKind::OpenCL, "OpenCL 1.2", false),
        // Preferred after tiled: the default where the float variants cannot hold the problem.
        entry("fp64", "tiled in double precision", VariantKind::OpenCL, "OpenCL 1.2, fp64", true),
        entry("separable",
              "Gaussian on plane grids as F = A diag(c) B^T per plane (matrix product)",
              VariantKind::OpenCL, "OpenCL 1.2, Gaussian kernel, --planes targets", false),
        entry("cpu", "host reference in double, std::thread", VariantKind::Host, "host CPU", true),
    };
}

Support supports(const std::string& variant, const DeviceInfo& device, const Problem* problem,
                 const Params* params) {
    const auto entries = variantEntries();
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [&](const VariantEntry& e) { return e.info.id == variant; });
    if (it == entries.end()) return {false, "no rbf variant '" + variant + "'"};
    if (const Support s = it->supports(device); !s.ok) return s;
    if (problem && params && it->info.kind == VariantKind::OpenCL && variant != "fp64")
        if (const Support s = floatRange(variant, *problem, *params); !s.ok) return s;
    if (variant == "seed" && problem) return seedLimit(device, problem->sourceCount());
    if (variant == "separable" && problem && params) return separableLimit(*problem, *params);
    return {};
}

namespace {

Result runOnDevice(const DeviceInfo& device, const std::string& id, const Problem& problem,
                   const Params& params, const Progress& progress,
                   const ProgramOverrides& programs) {
    ClSession session(device);
    DeviceRun run(session, problem, params, id == "fp64");
    run.tuning = runTuning(id, device, problem, params);
    run.centred = id != "separable";
    run.programs = programs;
    run.values = programs.over(hostValues(problem, params, run.useDouble, run.tuning));
    Result result;
    try {
        const std::size_t sourcePad =
            prepareBuffers(run, isDirect(id) ? std::stoul(run.values.at("RBF_WG")) : 1);
        if (problem.targetCount() && problem.sourceCount()) {
            if (isDirect(id))
                runTiled(run, id == "tiled-fast", sourcePad, progress);
            else if (id == "seed")
                runSeed(run);
            else
                runSeparable(run, progress);
        } else if (problem.targetCount()) { // no sources: f = 0
            session.fill(run.out,
                         problem.targetCount() * (run.complexOut ? 2 : 1) * run.realBytes(),
                         "rbf zero");
        }
        downloadResult(run, result);
        session.finish();
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "rbf " + id, device);
    }
    result.timings = session.timings();
    result.kernelMs = result.timings.kernelMs();
    return result;
}

// The result's deviation from the double reference on a few targets spread over all.
void checkSample(const Problem& problem, const Params& params, Result& result) {
    if (!params.sampleTargets || !problem.targetCount()) return;
    const std::vector<std::size_t> sample =
        sampleIndices(problem.targetCount(), params.sampleTargets);
    Result reference = evaluateCpu(subsetTargets(problem, sample), params);
    reference.targetIndex = sample;
    const Comparison c = compareResults(result, reference);
    result.sampleDeviation = c.relative;
    result.sampleCount = c.compared;
}

} // namespace

Result evaluate(const DeviceInfo& device, const std::string& variant, const Problem& problem,
                const Params& params, const Progress& progress, const ProgramOverrides& programs) {
    const std::string& id = variant; // resolved by runAlgorithm
    if (std::find(variantIds().begin(), variantIds().end(), id) == variantIds().end())
        throw UsageError("rbf: no variant '" + id +
                         "' (seed, tiled, tiled-fast, fp64, separable, cpu)");
    params.check();
    problem.check();
    if (const Support s = supports(id, device, &problem, &params); !s.ok)
        throw UsageError("rbf variant '" + id + "' cannot run on " + device.spec + ": " + s.reason);
    if (id == "cpu") return evaluateCpu(problem, params, progress);
    Result result = runOnDevice(device, id, problem, params, progress, programs);
    result.device = device.spec + " (" + device.name + ")";
    result.variant = id;
    result.kernel = params.kernel;
    checkSample(problem, params, result);
    progress.report(1.0);
    return result;
}

} // namespace clscope::rbf
