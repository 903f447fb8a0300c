// rbf's input: particles (sources, targets, weights) and their HDF5 layout (DESIGN.md §3,
// group /particles: sources (N,3), targets (M,3), weights (N,) real or (N,2) complex).
#pragma once
#include "core/hdf5.hpp"

#include <string>
#include <vector>

namespace clscope {

// Particles (sources, targets, weights): positions are (N,3) row-major.
struct Particles {
    std::vector<double> sources; // N*3
    std::vector<double> targets; // M*3
    std::vector<double> weights; // N, or N*2 as [re, im] when complex
    bool complexWeights = false;
    std::size_t sourceCount() const { return sources.size() / 3; }
    std::size_t targetCount() const { return targets.size() / 3; }
};

namespace paths {
inline const std::string particles = "/particles";
} // namespace paths

Particles readParticles(const H5Reader& file, const std::string& group = paths::particles);
void writeParticles(H5Writer& out, const Particles& particles,
                    const std::string& group = paths::particles);

} // namespace clscope
