// rbf through the algorithm interface: the particles role, --kernel/--sigma/--wavenumber/
// --planes, the variants of gpu/rbf and /rbf/potential.
#include "gpu/rbf/algorithm.hpp"
#include "gpu/rbf/facets.hpp"

#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "core/rbf/rbf_io.hpp"
#include "gpu/rbf/rbf_gpu.hpp"
#include "gpu/rbf/recipes.hpp"

#include <cstdio>

namespace clscope::rbf {

std::string RbfInput::describe() const {
    std::string s = std::to_string(problem.targetCount()) + " targets";
    if (problem.targets.planes)
        s += " on 3 planes of " + std::to_string(problem.targets.planes) + "^2";
    return s + " x " + std::to_string(problem.sourceCount()) + " sources, " +
           (problem.complexWeights ? "complex" : "real") + " weights";
}

void RbfResult::write(H5Writer& out, const std::string& group) const {
    writePotential(out, result, group);
    writeProvenance(out, group, {info.device, info.variant, info.parametersJson, info.kernelMs});
    if (result.sampleCount) { // the run's own check against double on a few targets
        out.setAttribute(group, "sample_deviation", result.sampleDeviation);
        out.setAttribute(group, "sample_targets", static_cast<double>(result.sampleCount));
    }
}

std::string RbfResult::summary() const {
    std::string s =
        std::to_string(result.count()) + (result.complex ? " complex" : " real") + " potentials";
    if (result.sampleCount) {
        char deviation[96];
        std::snprintf(deviation, sizeof deviation, ", %.2g from float64 on %zu targets",
                      result.sampleDeviation, result.sampleCount);
        s += deviation;
    }
    return s;
}

Params Algorithm::parameters(const ParamSet& set) const {
    Params p;
    p.kernel = parseKernel(set.text("kernel"));
    p.sigma = set.number("sigma");
    p.wavenumber = set.number("wavenumber");
    p.planes = static_cast<std::size_t>(set.integer("planes"));
    p.threads = static_cast<unsigned>(set.integer("threads"));
    p.sampleTargets = static_cast<std::size_t>(set.integer("sample_targets"));
    return p;
}

std::shared_ptr<RbfInput> makeInput(Problem problem, nlohmann::json provenance) {
    auto input = std::make_shared<RbfInput>();
    input->problem = std::move(problem);
    input->provenance = provenance.is_object() ? provenance : nlohmann::json::object();
    return input;
}

const Problem& withPlanes(const Problem& problem, std::size_t planes, Problem& storage) {
    if (!planes || planes == problem.targets.planes) return problem;
    storage.sources = problem.sources, storage.weights = problem.weights;
    storage.complexWeights = problem.complexWeights;
    storage.targets = {};
    storage.targets.planes = planes;
    return storage;
}

Algorithm::Algorithm()
    : TypedAlgorithm({"rbf", "Particle sums f(x) = Σ g(x, y) c: Gaussian, Laplace, Helmholtz"}) {
    for (auto facet : {splitFacet(), passesFacet(), syntheticFacet(), benchFacet(), labFacet(),
                       resultReaderFacet()})
        add(std::move(facet));
}

std::vector<InputRole> Algorithm::inputRoles() const {
    InputRole role;
    role.id = "particles";
    role.flag = "--particles";
    role.defaultPath = particlesGroup;
    role.help = "group with sources (N,3), targets (M,3), weights (N) or (N,2) as [re, im]";
    role.layout = InputRole::Layout::Group, role.members = {"sources", "targets", "weights"};
    role.hints = {"particles"};
    return {role};
}

std::vector<ParamSpec> Algorithm::parameterSpecs() const {
    using T = ParamSpec::Type;
    ParamSpec kernel =
        makeOption("kernel", T::Choice, "gaussian", "kernel", "--kernel",
                   "gaussian exp(-r²/2σ²), laplace 1/(4πr), helmholtz e^{ikr}/(4πr)", "");
    kernel.choices = {"gaussian", "laplace", "helmholtz"};
    ParamSpec sigma = makeOption("sigma", T::Double, 0.1, "σ", "--sigma", "Gaussian width", "");
    sigma.min = 1e-12;
    ParamSpec k = makeOption("wavenumber", T::Double, 10.0, "k", "--wavenumber",
                             "Helmholtz wavenumber", "1/length");
    ParamSpec planes =
        makeOption("planes", T::Int, 0, "plane grid n", "--planes",
                   "n > 0: targets on the seed's three n x n planes xy, xz, yz of the unit "
                   "cube instead of the file's",
                   "");
    planes.min = 0, planes.max = 20000;
    ParamSpec threads = makeOption("threads", T::Int, 0, "CPU threads", "",
                                   "cpu variant: worker threads (0: all cores)", "");
    threads.min = 0, threads.max = 4096, threads.advanced = true;
    ParamSpec sample =
        makeOption("sample_targets", T::Int, 64, "sample check", "",
                   "OpenCL variants: targets re-evaluated in double after the run", "targets");
    sample.min = 0, sample.max = 100000, sample.advanced = true;
    return {kernel, sigma, k, planes, threads, sample};
}

std::vector<VariantEntry> Algorithm::variants() const {
    return variantSet().entries();
}

std::vector<ProgramRecipe> Algorithm::recipes() const {
    return rbf::recipes();
}

std::shared_ptr<const AlgorithmInput> Algorithm::read(const InputSources& sources,
                                                      const ParamSet& params) const {
    const InputRole particles = role("particles");
    const DataLocation where = sources.locate(particles);
    const H5Reader file(where.file);
    const std::size_t planes = static_cast<std::size_t>(params.integer("planes"));
    return makeInput(readProblem(file, where.path, planes), inputProvenance(sources, {particles}));
}

Support Algorithm::supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                                const RbfInput* input, const Params* params) const {
    if (!input || !params) return variantSet().supports(variant, device, nullptr);
    Problem storage;
    const Problem& problem = withPlanes(input->problem, params->planes, storage);
    const Job job{device, &problem, params};
    return variantSet().supports(variant, device, &job);
}

std::shared_ptr<RbfResult> Algorithm::runWith(const RunRequest& request, const RbfInput& in,
                                              Params params, const Progress& progress) const {
    params.tuning = request.tuning;
    if (in.origin) params.origin = in.origin;
    auto out = std::make_shared<RbfResult>();
    Problem storage;
    const Problem& problem = withPlanes(in.problem, params.planes, storage);
    out->result = variantSet()
                      .find(request.variant)
                      .run({request.device, &problem, &params, progress, request.programs});
    out->result.targetIndex = in.targetIndex;
    out->info.timings = out->result.timings.records();
    return out;
}

namespace {

// The operations of one pair as rbf_pair counts them (resources/kernels/rbf_pairs.cl), a special
// function (exp, rsqrt, sin, cos) counted as one: the difference and r^2 (8), the pair function,
// then g c added to the sum (a multiply-add per real product of g and c).
double pairOperations(Kernel kernel, bool complexWeights) {
    const double function = kernel == Kernel::Gaussian  ? 2  // r^2 scale, exp
                            : kernel == Kernel::Laplace ? 1  // rsqrt
                                                        : 7; // rsqrt, r, kr, sin, cos, 2 x g
    const double products = (kernel == Kernel::Helmholtz ? 2 : 1) * (complexWeights ? 2 : 1);
    return 8 + function + 2 * products;
}

} // namespace

double sourceBytes(const Problem& problem) {
    return 4.0 * double(problem.sourceCount()) * (3 + (problem.complexWeights ? 2 : 1));
}

RunWork runWork(const RbfInput& input, const Params& params) {
    Problem storage;
    const Problem& problem = withPlanes(input.problem, params.planes, storage);
    const double sources = double(problem.sourceCount()), targets = double(problem.targetCount());
    const double explicitTargets = problem.targets.planes ? 0 : targets;
    const double outputValues = complexOutput(problem, params) ? 2 : 1;
    RunWork w;
    w.bytes = sourceBytes(problem) + 4 * (explicitTargets * 3 + targets * outputValues);
    w.operations = sources * targets * pairOperations(params.kernel, problem.complexWeights);
    return w;
}

Deviation Algorithm::compareWith(const RbfResult& result, const RbfResult& reference) const {
    const RbfResult* got = &result;
    const RbfResult* want = &reference;
    Deviation d;
    d.metric = "max|f - f_ref| / max|f_ref|";
    d.tolerance = tolerance(result.info.variant, got->result.kernel);
    const Comparison c = compareResults(got->result, want->result, d.tolerance);
    d.maxDeviation = c.relative;
    d.compared = c.compared;
    d.beyond = c.valid ? c.beyond : c.compared;
    d.firstIndex = c.firstBeyond;
    if (c.firstBeyond >= 0) d.firstWhere = "target " + std::to_string(c.firstBeyond);
    if (!c.valid)
        d.note = "the result does not cover the reference's targets";
    else if (c.compared < got->result.count())
        d.note = "checked on " + std::to_string(c.compared) + " of " +
                 std::to_string(got->result.count()) + " targets";
    d.pass = c.valid && c.relative <= d.tolerance;
    return d;
}

} // namespace clscope::rbf
