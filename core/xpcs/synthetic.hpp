// The xpcs synthetic datasets (clscope-cli generate xpcs, the bench and the demo).
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/hdf5.hpp"
#include "core/mask/geometry.hpp"
#include "core/mask/partition.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace clscope::synthetic {

// xpcs, model "seed" (seed 000): ring labels floor(r / ringWidth) about the centre, frames
// Poisson with rate 0.5*(sin(L * s_t) + 1) * I0 * (rmax - r) / rmax + 1, s_t = linspace(0,
// 100, T) (a flat g2: the bench case).
// Model "brownian": particles diffusing with coefficient D seen in a SAXS geometry (beam at
// the image centre, distance, pixel size, wavelength); every pixel a fully developed speckle
// whose field follows an AR(1) process with correlation exp(-D q^2 tau) per frame, counts
// Poisson with mean I0 |E|^2 / (1 + (r / (H/4))^2): g2 = 1 + exp(-2 D q^2 tau) by
// construction. Writes the geometry, qmask_q (nm^-1) with qmask_label_ids and the frame time
// (1 ms when none is given).
struct XpcsParams {
    std::string model = "brownian"; // "brownian" (the default) or "seed" (the bench case)
    double diffusion = 1e6;         // brownian: D in Å^2/s
    double distance = 5.0;          // brownian: metres
    double pixelSize = 75e-6;       // brownian: metres
    double wavelength = 1e-10;      // brownian: metres
    std::size_t frames = 500, height = 201, width = 241;
    double ringWidth = 10.0; // pixels per label
    double intensity = 10.0; // I0
    DType dtype = DType::UInt8;
    double frameTime = 0.0; // seconds; 0 = none written
    std::uint64_t seed = 0;
};
struct XpcsDataset {
    Array frames;
    LabelMask labels;
    std::optional<double> frameTime;
    std::optional<mask::Geometry> geometry;    // brownian
    std::optional<mask::LabelCenters> centers; // brownian: mean q of each label
    std::optional<double> diffusion;           // brownian: D in Å²/s (paths::trueDiffusion)
};
XpcsDataset generateXpcs(const XpcsParams& p);
XpcsDataset generateBrownianXpcs(const XpcsParams& p); // model "brownian"
// The dataset at the paths of DESIGN.md §3: the frames dense at paths::frames, or, `sparse`,
// in the CSR layout at CsrWriter::group (the same frames: convert --to dense gives them back).
// Returns what holds the frames, e.g. "/entry/data/data (500, 201, 241) uint8".
std::string writeXpcs(H5Writer& out, const XpcsDataset& d, Compression c, bool sparse = false);

} // namespace clscope::synthetic
