#include "core/rbf/synthetic.hpp"
#include "core/errors.hpp"

#include <random>

namespace clscope::synthetic {

std::vector<double> planeTargets(std::size_t n) {
    std::vector<double> t;
    t.reserve(9 * n * n);
    const double step = n > 1 ? 1.0 / static_cast<double>(n - 1) : 0.0;
    for (int plane = 0; plane < 3; ++plane)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const double a = static_cast<double>(i) * step, b = static_cast<double>(j) * step;
                if (plane == 0) t.insert(t.end(), {a, b, 0.0}); // xy
                if (plane == 1) t.insert(t.end(), {a, 0.0, b}); // xz
                if (plane == 2) t.insert(t.end(), {0.0, a, b}); // yz
            }
    return t;
}

Particles generateParticles(const ParticlesParams& p) {
    if (p.sources < 1 || p.gridPoints < 1)
        throw UsageError("particles: sources and grid points must be at least 1");
    std::mt19937_64 rng(p.seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Particles out;
    out.complexWeights = p.complexWeights;
    out.sources.resize(3 * p.sources);
    for (double& v : out.sources)
        v = unit(rng);
    out.weights.resize(p.sources * (p.complexWeights ? 2 : 1));
    for (double& v : out.weights)
        v = unit(rng);
    out.targets = planeTargets(p.gridPoints);
    return out;
}

} // namespace clscope::synthetic
