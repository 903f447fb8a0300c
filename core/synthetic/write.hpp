// Writing one synthetic dataset of each generator (core/synthetic/synthetic.hpp): checked,
// generated, then written. Each algorithm's synthetic kind (gpu/A/synthetic.cpp) calls its
// generator's function; `clscope-cli generate` and the GUI's Generate dialog reach them through
// the registry.
#pragma once
#include "core/hdf5.hpp"
#include "core/synthetic/synthetic.hpp"

#include <string>

namespace clscope::synthetic {

// Accepted ranges of the generator options (the kinds declare them in their specs).
namespace limits {
inline constexpr std::size_t maxFrames = 1'000'000'000, maxSide = 1 << 20, maxSpots = 1'000'000,
                             maxModules = 65533, maxFaults = 10'000, maxSources = 100'000'000,
                             maxGridPoints = 100'000;
inline constexpr double maxIntensity = 1e9, minRingWidth = 1e-3, maxRingWidth = 1e9,
                        maxClustersPerModule = 1000, maxFrameTime = 1e6;
} // namespace limits

// Each takes options within the limits above (the kinds' specs declare them and ParamSet
// checks them), refuses what a combination of them would need (UsageError: labels beyond int32,
// memory beyond what is available), generates the dataset and only then writes it to path
// (temporary name, then renamed): a run stopped while generating leaves nothing behind. Returns
// a one-line summary of what was written.
std::string writeXpcsDataset(const XpcsParams& p, Compression c, const std::string& path);
std::string writeDiffractionDataset(const DiffractionParams& p, Compression c,
                                    const std::string& path);
std::string writeDigisDataset(const DigisParams& p, const std::string& path);
std::string writeParticlesDataset(const ParticlesParams& p, const std::string& path);

} // namespace clscope::synthetic
