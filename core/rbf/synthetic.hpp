// The rbf synthetic dataset (clscope-cli generate particles, the bench and the demo).
#pragma once
#include "core/data.hpp"
#include "core/rbf/particles.hpp"

#include <cstdint>
#include <vector>

namespace clscope::synthetic {

// particles (seed 003): random sources in the unit cube with random weights; targets on three
// n x n grids of the planes xy, xz and yz.
struct ParticlesParams {
    std::size_t sources = 50;
    std::size_t gridPoints = 400; // n per plane side
    bool complexWeights = false;
    std::uint64_t seed = 0;
};
Particles generateParticles(const ParticlesParams& p);
// The seed's plane targets alone (3*n*n points).
std::vector<double> planeTargets(std::size_t n);

} // namespace clscope::synthetic
