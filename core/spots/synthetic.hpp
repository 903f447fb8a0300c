// The spots synthetic dataset (clscope-cli generate diffraction, the bench and the demo).
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/hdf5.hpp"

#include <cstdint>

namespace clscope::synthetic {

// diffraction (seed 002): Poisson background with Gaussian spots, uint16; optional EIGER-like
// gaps (2-pixel chip gaps every 256 pixels, module gaps of 10 x 37 pixels) set to 65535 and
// recorded in the pixel mask.
struct DiffractionParams {
    std::size_t frames = 1, height = 512, width = 1028;
    std::size_t spots = 100;     // per frame
    double background = 1.0;     // mean counts per pixel
    double spotIntensity = 2000; // mean total counts per spot
    bool gaps = false;
    std::uint64_t seed = 0;
};
struct DiffractionDataset {
    Array frames; // (T,H,W) uint16
    PixelMask mask;
};
DiffractionDataset generateDiffraction(const DiffractionParams& p);
void writeDiffraction(H5Writer& out, const DiffractionDataset& d, Compression c);

} // namespace clscope::synthetic
