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
// Generate the dataset and write it to path (temporary name, then renamed); returns a one-line
// summary of what was written.
std::string writeDataset(const Request& request, const std::string& path);

} // namespace clscope::synthetic
