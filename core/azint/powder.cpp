#include "core/azint/powder.hpp"

#include "core/azint/pixel_map.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace clscope::azint {

Geometry powderGeometry(std::size_t height, std::size_t width) {
    Geometry g;
    g.pixel1 = g.pixel2 = 75e-6;
    g.poni1 = 0.5 * double(height) * g.pixel1, g.poni2 = 0.5 * double(width) * g.pixel2;
    g.dist = 0.1, g.wavelength = 1e-10;
    g.height = height, g.width = width;
    return g;
}

namespace {

// The mean counts of every pixel: Gaussian rings in q (nm^-1) over the background.
std::vector<double> meanImage(const PowderParams& p, const Geometry& g) {
    const PixelMap map = computePixelMap(g, Params{}, p.height, p.width, {}, {});
    const double qMax = *std::max_element(map.radial.begin(), map.radial.end());
    const double spacing = qMax / double(p.rings + 1), width = spacing / 20;
    std::vector<double> mean(map.radial.size(), p.background);
    for (std::size_t k = 0; k < mean.size(); ++k) {
        const double q = map.radial[k];
        const double nearest = std::round(q / spacing);
        if (nearest < 1 || nearest > double(p.rings)) continue;
        const double d = (q - nearest * spacing) / width;
        mean[k] += p.ringIntensity * std::exp(-0.5 * d * d) / std::sqrt(nearest);
    }
    return mean;
}

} // namespace

Array powderFrames(const PowderParams& p, const Geometry& g) {
    const std::vector<double> mean = meanImage(p, g);
    Array frames(DType::UInt16, {p.frames, p.height, p.width});
    auto out = frames.as<std::uint16_t>();
    std::mt19937_64 rng(p.seed);
    // Counts of mean m as m + sqrt(m) x a normal deviate, rounded (Poisson's first two moments;
    // fast enough for 4096 x 4096 frames).
    std::normal_distribution<double> normal;
    for (std::size_t t = 0; t < p.frames; ++t)
        for (std::size_t k = 0; k < mean.size(); ++k) {
            const double v = std::round(mean[k] + std::sqrt(mean[k]) * normal(rng));
            out[t * mean.size() + k] = static_cast<std::uint16_t>(std::clamp(v, 0.0, 65533.0));
        }
    return frames;
}

} // namespace clscope::azint
