// The rbf variants, declared once: their entries, support checks with reasons, tolerances,
// default tuning and runs.
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "gpu/rbf/rbf_gpu.hpp"
#include "gpu/rbf/recipes.hpp"
#include "gpu/rbf/runner.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <future>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

namespace clscope::rbf {

namespace {

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
Support floatRange(const Flavour& flavour, const Problem& p, const Params& params) {
    const double longest = longestDistance(p);
    if (longest * longest > 1e37)
        return {false, "pairs up to " + number(longest) +
                           " apart: r² overflows fp32 (at most about 3.4e38); use fp64 or cpu"};
    const double phase = params.wavenumber * longest,
                 most = flavour.tolerance(params.kernel) / 2e-8;
    if (params.kernel == Kernel::Helmholtz && phase > most)
        return {false, "Helmholtz phase k·r up to " + number(phase) + " (k " +
                           number(params.wavenumber) + ", pairs up to " + number(longest) +
                           " apart): fp32 keeps it within the tolerance " +
                           number(flavour.tolerance(params.kernel)) + " up to k·r " + number(most) +
                           "; use fp64 or cpu"};
    return {};
}

// The problem's own limits on a variant beyond the device: fp32's range, the seed kernel's
// work-group, separable's Gaussian on planes.
Support accepts(const Flavour& flavour, const Job& job) {
    if (job.problem && job.params && flavour.launch != Launch::Host && !flavour.fp64)
        if (const Support s = floatRange(flavour, *job.problem, *job.params); !s.ok) return s;
    if (flavour.launch == Launch::Seed && job.problem)
        return seedLimit(job.device, job.problem->sourceCount());
    if (flavour.launch == Launch::Separable && job.problem && job.params)
        return separableLimit(*job.problem, *job.params);
    return {};
}

Result runOnDevice(const Job& job, const std::string& id, const Flavour& flavour) {
    const DeviceInfo& device = job.device;
    const Problem& problem = *job.problem;
    const Params& params = *job.params;
    ClSession session(device);
    DeviceRun run(session, problem, params, flavour.fp64);
    run.tuning = runTuning(flavour, device, problem, params);
    run.centred = flavour.launch != Launch::Separable;
    run.programs = job.programs;
    run.values = job.programs.over(hostValues(problem, params, run.useDouble, run.tuning));
    Result result;
    try {
        const std::size_t sourcePad =
            prepareBuffers(run, flavour.direct() ? std::stoul(run.values.at("RBF_WG")) : 1);
        session.mark("rbf: buffers made, uploads queued");
        if (problem.targetCount() && problem.sourceCount()) {
            if (flavour.direct())
                runTiled(run, flavour.launch == Launch::TiledFast, sourcePad, job.progress);
            else if (flavour.launch == Launch::Seed)
                runSeed(run);
            else
                runSeparable(run, job.progress);
        } else if (problem.targetCount()) { // no sources: f = 0
            session.fill(run.out,
                         problem.targetCount() * (run.complexOut ? 2 : 1) * run.realBytes(),
                         "rbf zero");
        }
        downloadResult(run, result);
        session.mark("rbf: result read back");
        session.finish();
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "rbf " + id, device);
    }
    result.timings = session.timings();
    result.kernelMs = result.timings.kernelMs();
    return result;
}

// The double reference on a few targets spread over all (none when not asked for).
std::optional<Result> sampleReference(const Problem& problem, const Params& params) {
    if (!params.sampleTargets || !problem.targetCount()) return std::nullopt;
    const std::vector<std::size_t> sample =
        sampleIndices(problem.targetCount(), params.sampleTargets);
    Result reference = evaluateCpu(subsetTargets(problem, sample), params);
    reference.targetIndex = sample;
    return reference;
}

// The result's deviation from that reference.
void checkSample(const std::optional<Result>& reference, Result& result) {
    if (!reference) return;
    const Comparison c = compareResults(result, *reference);
    result.sampleDeviation = c.relative;
    result.sampleCount = c.compared;
}

Result runOpenCl(const Job& job, const std::string& id, const Flavour& flavour) {
    job.params->check();
    job.problem->check();
    // The sample's reference on the host's cores while the device runs (after it, on one core,
    // it took ~47 ms of a 116 ms run of 10^6 targets x 10^5 sources on an H100).
    std::future<std::optional<Result>> reference = std::async(
        std::launch::async, [&job] { return sampleReference(*job.problem, *job.params); });
    Result result = runOnDevice(job, id, flavour);
    result.device = job.device.spec + " (" + job.device.name + ")";
    result.variant = id;
    result.kernel = job.params->kernel;
    const auto checking = std::chrono::steady_clock::now();
    checkSample(reference.get(), result);
    result.timings.add("rbf sample check after the run (host wall: the reference's rest, the "
                       "comparison)",
                       msSince(checking));
    job.progress.report(1.0);
    return result;
}

Result runHost(const Job& job) {
    job.params->check();
    job.problem->check();
    return evaluateCpu(*job.problem, *job.params, job.progress);
}

Variant<Job, Result, Flavour> variant(const std::string& id, const std::string& label,
                                      const std::string& needs, bool preferred, Flavour flavour) {
    DeviceInfo gpu;
    gpu.type = "GPU";
    const bool host = flavour.launch == Launch::Host;
    VariantEntry e{{"rbf", id, label, host ? VariantKind::Host : VariantKind::OpenCL, needs,
                    nlohmann::json(flavour.defaultTuning(gpu)).dump(), preferred,
                    host ? std::vector<std::string>{} : std::vector{flavour.program}},
                   {}};
    if (!host && flavour.fp64) e.extraCheck = needsFp64;
    Variant<Job, Result, Flavour> v{std::move(e), runHost,
                                    [flavour](const Job& job) { return accepts(flavour, job); },
                                    flavour};
    if (!host) v.run = [id, flavour](const Job& job) { return runOpenCl(job, id, flavour); };
    return v;
}

} // namespace

std::map<std::string, int> runTuning(const Flavour& flavour, const DeviceInfo& device,
                                     const Problem& problem, const Params& params) {
    std::map<std::string, int> tuning = flavour.defaultTuning(device);
    // Helmholtz keeps twice the registers per target (complex sums): 2 targets per work-item
    // on GPUs (H200, 10^6 x 10^5: 122.9 ms against 125.2 ms with 4; docs/PERFORMANCE.md).
    if (device.type == "GPU" && params.kernel == Kernel::Helmholtz && flavour.direct())
        tuning["RBF_TPW"] = 2;
    if (flavour.launch == Launch::Seed) tuning["SEED_N"] = static_cast<int>(problem.sourceCount());
    for (const auto& [name, value] : params.tuning)
        tuning[name] = value;
    return tuning;
}

double Flavour::tolerance(Kernel kernel) const {
    if (fp64) return toleranceFp64;
    if (launch == Launch::TiledFast && kernel == Kernel::Helmholtz) return toleranceFast;
    return toleranceFp32;
}

std::map<std::string, int> Flavour::defaultTuning(const DeviceInfo& device) const {
    const bool gpu = device.type == "GPU";
    switch (launch) {
    case Launch::Seed:
        return {{"SEED_SX", 16}}; // the seed's SX
    case Launch::Separable:       // CPU devices: fewer, larger work-items (PoCL ~5x faster)
        return gpu ? Tuning{{"SEP_TS", 16}, {"SEP_WPT", 4}, {"SEP_KT", 16}}
                   : Tuning{{"SEP_TS", 8}, {"SEP_WPT", 8}, {"SEP_KT", 8}};
    case Launch::Tiled:
    case Launch::TiledFast:
        if (fp64) return {{"RBF_WG", gpu ? 128 : 64}, {"RBF_TPW", 2}, {"RBF_UNROLL", 4}};
        return {{"RBF_WG", gpu ? 128 : 64}, {"RBF_TPW", 4}, {"RBF_UNROLL", gpu ? 8 : 4}};
    case Launch::Host:
        break;
    }
    return {};
}

const VariantSet<Job, Result, Flavour>& variantSet() {
    static const VariantSet<Job, Result, Flavour> set(
        "rbf",
        {variant("seed", "one work-item per target-source pair in local tiles (the seed's kernel)",
                 "OpenCL 1.2, N <= max work-group size / 16", false,
                 {Launch::Seed, false, seedProgram}),
         variant("tiled",
                 "work-item per 4 targets, sources staged through local memory, accurate maths",
                 "OpenCL 1.2", true, {Launch::Tiled, false, tiledProgram}),
         variant("tiled-fast", "tiled with native exp2/rsqrt/sin/cos and a pre-scaled exponent",
                 "OpenCL 1.2", false, {Launch::TiledFast, false, tiledFastProgram}),
         // Preferred after tiled: the default where the float variants cannot hold the problem.
         variant("fp64", "tiled in double precision", "OpenCL 1.2, fp64", true,
                 {Launch::Tiled, true, tiledProgram}),
         variant("separable",
                 "Gaussian on plane grids as F = A diag(c) B^T per plane (matrix product)",
                 "OpenCL 1.2, Gaussian kernel, --planes targets", false,
                 {Launch::Separable, false, separableProgram}),
         variant("cpu", "host reference in double, std::thread", "host CPU", true,
                 {Launch::Host, true, ""})});
    return set;
}

Support supports(const std::string& variant, const DeviceInfo& device, const Problem* problem,
                 const Params* params) {
    const auto* v = variantSet().get(variant);
    if (!v) return {false, "no rbf variant '" + variant + "'"};
    const Job job{device, problem, params};
    return v->supports(device, &job);
}

double tolerance(const std::string& variant, Kernel kernel) {
    const auto* v = variantSet().get(variant);
    return v ? v->traits.tolerance(kernel) : toleranceFp32;
}

} // namespace clscope::rbf
