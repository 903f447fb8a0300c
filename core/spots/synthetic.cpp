#include "core/spots/synthetic.hpp"
#include "core/errors.hpp"
#include "core/io.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace clscope::synthetic {

namespace {

constexpr std::uint16_t gapValue = 65535;

// EIGER-like layout along one axis: chips of 256 with 2-pixel gaps, modules of `module`
// pixels separated by `moduleGap` pixels.
bool inGap(std::size_t i, std::size_t module, std::size_t moduleGap) {
    const std::size_t inModule = i % (module + moduleGap);
    if (inModule >= module) return true;
    const std::size_t inChip = inModule % 258;
    return inChip >= 256;
}

PixelMask gapMask(const DiffractionParams& p) {
    PixelMask m{p.height, p.width, std::vector<std::uint8_t>(p.height * p.width, 0)};
    if (!p.gaps) return m;
    for (std::size_t y = 0; y < p.height; ++y)
        for (std::size_t x = 0; x < p.width; ++x)
            m.bad[y * p.width + x] = inGap(y, 514, 37) || inGap(x, 1030, 10);
    return m;
}

// Expected counts of one frame: background plus Gaussian spots.
std::vector<double> expectedCounts(const DiffractionParams& p, std::mt19937_64& rng) {
    std::vector<double> rate(p.height * p.width, p.background);
    std::uniform_real_distribution<double> ux(0, static_cast<double>(p.width));
    std::uniform_real_distribution<double> uy(0, static_cast<double>(p.height));
    std::uniform_real_distribution<double> usigma(0.7, 2.0);
    std::exponential_distribution<double> intensity(1.0 / p.spotIntensity);
    for (std::size_t s = 0; s < p.spots; ++s) {
        const double cx = ux(rng), cy = uy(rng), sigma = usigma(rng);
        const double total = 50.0 + intensity(rng);
        const int reach = static_cast<int>(std::ceil(4 * sigma));
        for (int dy = -reach; dy <= reach; ++dy)
            for (int dx = -reach; dx <= reach; ++dx) {
                const long x = static_cast<long>(cx) + dx, y = static_cast<long>(cy) + dy;
                if (x < 0 || y < 0 || x >= static_cast<long>(p.width) ||
                    y >= static_cast<long>(p.height))
                    continue;
                const double ddx = x + 0.5 - cx, ddy = y + 0.5 - cy;
                rate[y * p.width + x] += total *
                                         std::exp(-(ddx * ddx + ddy * ddy) / (2 * sigma * sigma)) /
                                         (2 * M_PI * sigma * sigma);
            }
    }
    return rate;
}

} // namespace

DiffractionDataset generateDiffraction(const DiffractionParams& p) {
    if (p.frames < 1 || p.height < 1 || p.width < 1)
        throw UsageError("diffraction: frames, height and width must be at least 1");
    if (!(p.background >= 0) || !(p.spotIntensity > 0))
        throw UsageError("diffraction: background must be >= 0 and spot intensity > 0");
    DiffractionDataset d{Array(DType::UInt16, {p.frames, p.height, p.width}), gapMask(p)};
    auto out = d.frames.as<std::uint16_t>();
    const std::size_t npix = p.height * p.width;
    std::mt19937_64 rng(p.seed);
    for (std::size_t t = 0; t < p.frames; ++t) {
        const std::vector<double> rate = expectedCounts(p, rng);
        for (std::size_t i = 0; i < npix; ++i) {
            std::poisson_distribution<long> poisson(rate[i]);
            const long v = std::min<long>(poisson(rng), gapValue - 2);
            out[t * npix + i] = d.mask.bad[i] ? gapValue : static_cast<std::uint16_t>(v);
        }
    }
    return d;
}

void writeDiffraction(H5Writer& out, const DiffractionDataset& d, Compression c) {
    out.write(paths::frames, d.frames, c);
    out.write(paths::pixelMask, pixelMaskArray(d.mask), c);
}

} // namespace clscope::synthetic
