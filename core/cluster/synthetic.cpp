// Synthetic pixel digis (seed 001) shaped like a CMS Phase-1 event: barrel layers 1-4 (96, 224,
// 352, 512 modules as ladders x 8 modules along z) and 6 forward half-disks of 112 modules.
// Tracks from a smeared vertex, flat in eta (barrel rings along z weighted by sin theta); a
// barrel hit's z fixes its eta and the cluster grows along y (the beam) with |sinh eta|, a
// Lorentz drift of up to a pixel in x; Landau (Moyal) charges scaled with the path length,
// 100 e- of pixel noise, a 1600 e- readout threshold, pixels hit twice merged, a few isolated
// noise hits per module. Charges are in electrons (as CMSSW's calibrated adc). The default
// (PU ~50) gives ~59k digis in ~18k clusters.
#include "core/cluster/synthetic.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <utility>

namespace clscope::synthetic {

namespace {

using Rng = std::mt19937_64;
using Pixel = std::pair<int, int>;
using ModuleHits = std::map<Pixel, double>; // pixel -> charge (e-)

constexpr std::array<std::size_t, 5> layerStart{0, 96, 320, 672, 1184}; // barrel layers, then disks
constexpr std::array<double, 4> layerRadius{2.9, 6.8, 10.9, 16.0};      // cm
constexpr std::array<double, 5> clustersPerModule{30, 13, 9, 7, 7.5};   // PU 50, per region
constexpr double thickness = 0.0285, pitchX = 0.010, pitchY = 0.015;    // cm
constexpr double moduleLength = 416 * pitchY, ladderModules = 8;
constexpr double maxCotTheta = 6.05; // sinh(2.5)
constexpr double threshold = 1600;   // e-, pixel readout threshold

int regionOf(std::size_t module) {
    int r = 0;
    while (r < 4 && module >= layerStart[r + 1])
        ++r;
    return r; // 0-3 barrel layers, 4 disks (and any module beyond Phase-1)
}

// Relative occupancy of a barrel ring (module along z) for tracks flat in eta: the mean of
// sin theta = r / sqrt(r^2 + z^2) over the ring, divided by its mean over the 8 rings.
double ringFactor(std::size_t module, int layer) {
    const double r = layerRadius[layer], half = ladderModules / 2 * moduleLength;
    auto integral = [r](double z) { return r * std::asinh(z / r); };
    const double ring = static_cast<double>((module - layerStart[layer]) % 8);
    const double z0 = (ring - ladderModules / 2) * moduleLength;
    const double own = (integral(z0 + moduleLength) - integral(z0)) / moduleLength;
    const double all = (integral(half) - integral(-half)) / (2 * half);
    return own / all;
}

// Landau-like energy loss: Moyal sample around a most probable 21000 e- for 285 um.
double landauCharge(Rng& rng, double pathFactor) {
    std::normal_distribution<double> gauss(0.0, 1.0);
    const double z = gauss(rng);
    const double moyal = -std::log(std::max(z * z, 1e-12)); // mode 0, long tail to the right
    return std::max(4000.0, 21000.0 * pathFactor * (1.0 + 0.12 * moyal));
}

// Deposit a straight track segment from (x0, y0) spanning (dx, dy) pixels: charge shared
// along it in small steps, added to the module's pixels.
void depositSegment(ModuleHits& hits, double x0, double y0, double dx, double dy, double charge) {
    const int steps = 8 + static_cast<int>(4 * (std::abs(dx) + std::abs(dy)));
    for (int s = 0; s < steps; ++s) {
        const double t = (s + 0.5) / steps;
        const int x = static_cast<int>(std::floor(x0 + t * dx)),
                  y = static_cast<int>(std::floor(y0 + t * dy));
        if (x >= 0 && x < Digis::moduleSizeX && y >= 0 && y < Digis::moduleSizeY)
            hits[{x, y}] += charge / steps;
    }
}

// One track through a barrel module of a layer: its z fixes eta, eta fixes the cluster length.
void barrelCluster(ModuleHits& hits, std::size_t indexInLayer, int layer, Rng& rng) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::normal_distribution<double> vertex(0.0, 3.5);
    const double ring = static_cast<double>(indexInLayer % 8), x0 = u(rng) * Digis::moduleSizeX;
    // A hit position with tracks flat in eta (density along z ~ sin theta), |eta| < 2.5.
    double y0 = 0, cotTheta = 0;
    for (int attempt = 0; attempt < 50; ++attempt) {
        y0 = u(rng) * Digis::moduleSizeY;
        const double z = (ring - ladderModules / 2) * moduleLength + y0 * pitchY - vertex(rng);
        cotTheta = z / layerRadius[layer];
        if (std::abs(cotTheta) < maxCotTheta && u(rng) * std::sqrt(1 + cotTheta * cotTheta) < 1)
            break;
    }
    cotTheta = std::clamp(cotTheta, -maxCotTheta, maxCotTheta);
    const double dy = thickness * cotTheta / pitchY; // along the beam: grows with |sinh eta|
    const double dx = thickness * 0.42 / pitchX * (0.15 + 0.6 * u(rng)); // Lorentz drift
    depositSegment(hits, x0, y0, dx, dy, landauCharge(rng, std::sqrt(1 + cotTheta * cotTheta)));
}

// One track through a forward disk module (blades tilted by 20 degrees, 1.5 < |eta| < 2.5).
void diskCluster(ModuleHits& hits, Rng& rng) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double eta = 1.5 + u(rng), theta = 2 * std::atan(std::exp(-eta));
    const double x0 = u(rng) * Digis::moduleSizeX, y0 = u(rng) * Digis::moduleSizeY;
    const double dx = thickness * std::tan(0.35) / pitchX * (0.6 + 0.8 * u(rng));
    const double dy = thickness * std::tan(theta) / pitchY * (u(rng) < 0.5 ? -1 : 1);
    depositSegment(hits, x0, y0, dx, dy, landauCharge(rng, 1.0 / std::cos(0.35)));
}

// A module's digis: clusters, isolated noise hits, pixel noise and the readout threshold;
// appended in random order (charges in electrons, capped at 65535).
void fillModule(Digis& d, std::size_t module, double meanClusters, Rng& rng) {
    ModuleHits hits;
    const int region = regionOf(module);
    std::poisson_distribution<int> clusters(meanClusters), noiseHits(0.3);
    for (int c = clusters(rng); c > 0; --c) {
        if (region < 4)
            barrelCluster(hits, module - layerStart[region], region, rng);
        else
            diskCluster(hits, rng);
    }
    std::uniform_int_distribution<int> ux(0, Digis::moduleSizeX - 1), uy(0, Digis::moduleSizeY - 1);
    std::exponential_distribution<double> noiseCharge(1.0 / 800);
    for (int k = noiseHits(rng); k > 0; --k)
        hits[{ux(rng), uy(rng)}] += 1000 + noiseCharge(rng);
    std::normal_distribution<double> pixelNoise(0.0, 100.0);
    std::vector<std::pair<Pixel, std::uint16_t>> digis;
    for (const auto& [px, charge] : hits) {
        const double q = charge + pixelNoise(rng);
        if (q >= threshold) digis.push_back({px, static_cast<std::uint16_t>(std::min(65535.0, q))});
    }
    std::shuffle(digis.begin(), digis.end(), rng);
    for (const auto& [px, adc] : digis) {
        d.module.push_back(static_cast<std::uint16_t>(module));
        d.x.push_back(static_cast<std::uint16_t>(px.first));
        d.y.push_back(static_cast<std::uint16_t>(px.second));
        d.adc.push_back(adc);
    }
}

// Insert copies of original digis and invalid digis at random positions.
void addFaults(Digis& d, const DigisParams& p, Rng& rng) {
    const Digis original = d;
    if (original.size() == 0) return;
    for (std::size_t k = 0; k < p.duplicates + p.invalid; ++k) {
        const std::size_t src =
            std::uniform_int_distribution<std::size_t>(0, original.size() - 1)(rng);
        const std::size_t at = std::uniform_int_distribution<std::size_t>(0, d.size())(rng);
        const bool invalid = k >= p.duplicates;
        d.module.insert(d.module.begin() + at,
                        invalid ? Digis::invalidModule : original.module[src]);
        d.x.insert(d.x.begin() + at, original.x[src]);
        d.y.insert(d.y.begin() + at, original.y[src]);
        d.adc.insert(d.adc.begin() + at, original.adc[src]);
    }
}

} // namespace

Digis generateDigis(const DigisParams& p) {
    if (p.modules < 1 || p.modules > Digis::invalidModule)
        throw UsageError("digis: modules must be between 1 and 65533");
    if (!(p.clustersPerModule >= 0)) throw UsageError("digis: clusters per module must be >= 0");
    Rng rng(p.seed);
    // Per-region occupancy of PU 50, scaled so that the mean over the modules is as asked.
    double weightSum = 0;
    auto weight = [](std::size_t m) {
        const int region = regionOf(m);
        return clustersPerModule[region] * (region < 4 ? ringFactor(m, region) : 1.0);
    };
    for (std::size_t m = 0; m < p.modules; ++m)
        weightSum += weight(m);
    const double scale = p.clustersPerModule * static_cast<double>(p.modules) / weightSum;
    // Modules come in a shuffled (readout-like) order, each module's digis together.
    std::vector<std::size_t> order(p.modules);
    for (std::size_t m = 0; m < p.modules; ++m)
        order[m] = m;
    std::shuffle(order.begin(), order.end(), rng);
    Digis d;
    for (std::size_t m : order)
        fillModule(d, m, scale * weight(m), rng);
    addFaults(d, p, rng);
    return d;
}

} // namespace clscope::synthetic
