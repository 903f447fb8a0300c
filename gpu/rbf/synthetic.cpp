// rbf's synthetic dataset (clscope-cli generate particles, the GUI's Generate dialog).
#include "core/rbf/synthetic.hpp"
#include "core/io.hpp"
#include "core/synthetic/limits.hpp"
#include "gpu/facets/synthetic_facet.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/rbf/facets.hpp"

namespace clscope::rbf {

namespace {

std::vector<ParamSpec> specs() {
    using T = ParamSpec::Type;
    namespace lim = synthetic::limits;
    const synthetic::ParticlesParams d;
    return {
        syntheticOption("sources", T::Int, d.sources, "Number of sources N", 1, lim::maxSources),
        syntheticOption("grid_points", T::Int, d.gridPoints, "Targets per plane side n (M = 3 n^2)",
                        1, lim::maxGridPoints),
        syntheticOption("complex", T::Bool, d.complexWeights, "Complex weights (for Helmholtz)"),
    };
}

std::string write(const ParamSet& o, std::uint64_t seed, Compression, const std::string& path) {
    synthetic::ParticlesParams p;
    p.seed = seed;
    p.sources = static_cast<std::size_t>(o.integer("sources"));
    p.gridPoints = static_cast<std::size_t>(o.integer("grid_points"));
    p.complexWeights = o.boolean("complex");
    synthetic::checkGeneratedMemory("particles", {3, p.gridPoints, p.gridPoints}, 24.0);
    synthetic::checkGeneratedMemory("particles", {p.sources}, 40.0);
    const Particles d = synthetic::generateParticles(p);
    H5Writer out(path); // only now: a run stopped while generating leaves nothing behind
    writeParticles(out, d);
    out.commit();
    return std::to_string(d.sourceCount()) + " sources, " + std::to_string(d.targetCount()) +
           " targets, " + (d.complexWeights ? "complex" : "real") + " weights under " +
           paths::particles;
}

class ParticlesSynthetic : public SyntheticFacet {
  public:
    std::vector<SyntheticKind> kinds() const override {
        return {{"particles", "Random sources, targets on three planes (seed 003)", specs(), write,
                 paths::particles}};
    }
};

} // namespace

std::shared_ptr<const Facet> syntheticFacet() {
    return std::make_shared<ParticlesSynthetic>();
}

} // namespace clscope::rbf
