#include "core/errors.hpp"
#include "core/synthetic/synthetic.hpp"

#include <algorithm>
#include <random>
#include <set>
#include <utility>

namespace clscope::synthetic {

namespace {

using Pixel = std::pair<int, int>;
constexpr std::size_t innerModules = 96; // barrel layer 1: three times the occupancy

// Cluster size 1..10, geometric with mean about 2.8 pixels.
int clusterSize(std::mt19937_64& rng) {
    std::geometric_distribution<int> geometric(0.36);
    return std::min(10, 1 + geometric(rng));
}

// An 8-connected blob grown from a random seed pixel inside the module.
std::vector<Pixel> growCluster(std::mt19937_64& rng) {
    std::uniform_int_distribution<int> ux(0, Digis::moduleSizeX - 1), uy(0, Digis::moduleSizeY - 1);
    std::vector<Pixel> pixels{{ux(rng), uy(rng)}};
    const int target = clusterSize(rng);
    std::uniform_int_distribution<int> step(-1, 1);
    for (int attempt = 0; static_cast<int>(pixels.size()) < target && attempt < 100; ++attempt) {
        const Pixel from = pixels[std::uniform_int_distribution<std::size_t>(0, pixels.size() - 1)(rng)];
        const Pixel next{from.first + step(rng), from.second + step(rng)};
        const bool inside = next.first >= 0 && next.first < Digis::moduleSizeX &&
                            next.second >= 0 && next.second < Digis::moduleSizeY;
        if (inside && std::find(pixels.begin(), pixels.end(), next) == pixels.end())
            pixels.push_back(next);
    }
    return pixels;
}

void append(Digis& d, std::uint16_t module, Pixel px, std::uint16_t adc) {
    d.module.push_back(module);
    d.x.push_back(static_cast<std::uint16_t>(px.first));
    d.y.push_back(static_cast<std::uint16_t>(px.second));
    d.adc.push_back(adc);
}

// Digis of one module in random order; pixels hit twice by overlapping clusters are kept once.
void fillModule(Digis& d, std::uint16_t module, double meanClusters, std::mt19937_64& rng) {
    std::poisson_distribution<int> clusters(meanClusters);
    std::gamma_distribution<double> charge(2.0, 2500.0);
    std::set<Pixel> seen;
    std::vector<std::pair<Pixel, std::uint16_t>> hits;
    for (int c = clusters(rng); c > 0; --c)
        for (const Pixel& px : growCluster(rng))
            if (seen.insert(px).second)
                hits.push_back({px, static_cast<std::uint16_t>(std::min(65535.0, 500 + charge(rng)))});
    std::shuffle(hits.begin(), hits.end(), rng);
    for (const auto& [px, adc] : hits) append(d, module, px, adc);
}

// Insert copies of original digis and invalid digis at random positions.
void addFaults(Digis& d, const DigisParams& p, std::mt19937_64& rng) {
    const Digis original = d;
    if (original.size() == 0) return;
    for (std::size_t k = 0; k < p.duplicates + p.invalid; ++k) {
        const std::size_t src = std::uniform_int_distribution<std::size_t>(0, original.size() - 1)(rng);
        const std::size_t at = std::uniform_int_distribution<std::size_t>(0, d.size())(rng);
        const bool invalid = k >= p.duplicates;
        d.module.insert(d.module.begin() + at, invalid ? Digis::invalidModule : original.module[src]);
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
    std::mt19937_64 rng(p.seed);
    const double inner = static_cast<double>(std::min(p.modules, innerModules));
    const double base = p.clustersPerModule * static_cast<double>(p.modules) /
                        (3.0 * inner + static_cast<double>(p.modules) - inner);
    Digis d;
    for (std::size_t m = 0; m < p.modules; ++m)
        fillModule(d, static_cast<std::uint16_t>(m), m < innerModules ? 3 * base : base, rng);
    addFaults(d, p, rng);
    return d;
}

} // namespace clscope::synthetic
