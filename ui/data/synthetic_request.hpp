// A synthetic dataset to generate: the four kinds of `clscope-cli generate` with their
// options (Qt-free; the Generate dialog fills it, the job runner writes it).
#pragma once
#include "core/hdf5.hpp"
#include "core/synthetic/synthetic.hpp"

#include <string>

namespace clscope::ui {

struct SyntheticRequest {
    enum class Kind { Xpcs, Diffraction, Digis, Particles } kind = Kind::Xpcs;
    synthetic::XpcsParams xpcs;
    synthetic::DiffractionParams diffraction;
    synthetic::DigisParams digis;
    synthetic::ParticlesParams particles;
    std::uint64_t seed = 0;
    Compression compression = Compression::Gzip;
};

std::string kindName(SyntheticRequest::Kind kind); // "xpcs", "diffraction", ...
// Generate and write the dataset to path (temporary name, then renamed); returns a summary.
std::string writeSynthetic(const SyntheticRequest& request, const std::string& path);
// The dataset each algorithm's demo uses (xpcs: xpcs, spots: diffraction, cluster: digis,
// rbf: particles), small enough to run in seconds on PoCL.
SyntheticRequest demoRequest(const std::string& algorithm);

} // namespace clscope::ui
