// One synthetic dataset to write: the four kinds of `clscope-cli generate` with their options.
// Used by the CLI and by the GUI's Generate dialog and demos.
#pragma once
#include "core/hdf5.hpp"
#include "core/synthetic/synthetic.hpp"

#include <string>

namespace clscope::synthetic {

struct Request {
    enum class Kind { Xpcs, Diffraction, Digis, Particles } kind = Kind::Xpcs;
    XpcsParams xpcs;
    DiffractionParams diffraction;
    DigisParams digis;
    ParticlesParams particles;
    std::uint64_t seed = 0;
    Compression compression = Compression::Gzip;
};

std::string kindName(Request::Kind kind); // "xpcs", "diffraction", "digis", "particles"

// Accepted ranges of the generator options (the CLI checks them when parsing).
namespace limits {
inline constexpr std::size_t maxFrames = 1'000'000'000, maxSide = 1 << 20, maxSpots = 1'000'000,
                             maxModules = 65533, maxFaults = 10'000, maxSources = 100'000'000,
                             maxGridPoints = 100'000;
inline constexpr double maxIntensity = 1e9, minRingWidth = 1e-3, maxRingWidth = 1e9,
                        maxClustersPerModule = 1000, maxFrameTime = 1e6;
} // namespace limits

// UsageError naming the option and its accepted range, or the memory a request would need
// beyond what is available.
void checkRequest(const Request& request);
// Generate the dataset and write it to path (temporary name, then renamed); returns a one-line
// summary of what was written.
std::string writeDataset(const Request& request, const std::string& path);

} // namespace clscope::synthetic
