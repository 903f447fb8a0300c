// rbf's bench facet: the cases of DESIGN.md §7.
#include "core/errors.hpp"
#include "core/rbf/synthetic.hpp"
#include "gpu/facets/bench_facet.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/rbf/facets.hpp"
#include "gpu/rbf/rbf_gpu.hpp"

#include <random>

namespace clscope::rbf {

namespace {

std::shared_ptr<RbfInput> randomInput(std::size_t targets, std::size_t sources, bool complexWeights,
                                      std::uint64_t seed) {
    auto in = makeInput({});
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    in->problem.sources.resize(3 * sources);
    for (double& v : in->problem.sources)
        v = unit(rng);
    in->problem.weights.resize(sources * (complexWeights ? 2 : 1));
    for (double& v : in->problem.weights)
        v = unit(rng);
    in->problem.complexWeights = complexWeights;
    in->problem.targets.points.resize(3 * targets);
    for (double& v : in->problem.targets.points)
        v = unit(rng);
    return in;
}

// seed and large (Gaussian), plus large-laplace and large-helmholtz.
class RbfBench : public BenchFacet {
  public:
    std::vector<std::string> sizes() const override {
        return {"seed", "large", "large-laplace", "large-helmholtz"};
    }
    BenchCase benchCase(const clscope::Algorithm& algorithm,
                        const std::string& size) const override;
};

BenchCase RbfBench::benchCase(const clscope::Algorithm& algorithm, const std::string& size) const {
    BenchCase b;
    b.params = algorithm.defaultParams();
    b.unit = "interactions/s";
    if (size == "seed") { // 3 planes of 400^2 targets x 50 sources, Gaussian sigma 0.1
        synthetic::ParticlesParams gp;
        auto in = makeInput(makeProblem(synthetic::generateParticles(gp), gp.gridPoints));
        b.params.set("planes", static_cast<long long>(gp.gridPoints));
        b.description = "480,000 plane targets (n = 400) x 50 sources, Gaussian";
        b.work = static_cast<double>(in->problem.targetCount()) * in->problem.sourceCount();
        b.input = in;
        return b;
    }
    const std::string kernel = size == "large"             ? "gaussian"
                               : size == "large-laplace"   ? "laplace"
                               : size == "large-helmholtz" ? "helmholtz"
                                                           : "";
    if (kernel.empty())
        throw UsageError("rbf: no bench size '" + size +
                         "' (seed, large, large-laplace, large-helmholtz)");
    b.params.set("kernel", kernel);
    auto in = randomInput(1000000, 100000, kernel == "helmholtz", 7);
    // The float64 reference on 1000 targets spread over the 10^6.
    auto sample = makeInput({});
    sample->targetIndex = sampleIndices(in->problem.targetCount(), 1000);
    sample->problem = subsetTargets(in->problem, sample->targetIndex);
    b.description =
        "10^6 random targets x 10^5 sources, " + kernel + " (reference on 1000 targets)";
    b.work = 1e11;
    b.input = in;
    b.referenceInput = sample;
    return b;
}

} // namespace

std::shared_ptr<const Facet> benchFacet() {
    return std::make_shared<RbfBench>();
}

} // namespace clscope::rbf
