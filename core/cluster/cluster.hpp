// cluster: CMSSW-style 8-connected clustering of pixel digis per module (DESIGN.md §5).
// Types shared by the CPU reference and the OpenCL variants, the charge cut and the
// per-cluster quantities, which every variant derives from the same integer sums.
#pragma once
#include "core/cluster/digis.hpp"
#include "core/data.hpp"
#include "core/progress.hpp"
#include "core/timing.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace clscope::cluster {

constexpr std::uint16_t invalidModule = Digis::invalidModule; // 65534
constexpr int moduleSizeX = Digis::moduleSizeX;               // 160
constexpr int moduleSizeY = Digis::moduleSizeY;               // 416
constexpr std::uint16_t phase1InnerModules = 96;              // barrel layer 1: modules 0..95

// Optional cut on a cluster's total adc: none, CMSSW Phase-1 (2000 below module 96, else 4000)
// or one value for every module. A cluster passes when its charge >= the threshold.
struct ChargeCut {
    enum class Kind { None, Phase1, Value };
    Kind kind = Kind::None;
    std::uint64_t value = 0; // Kind::Value only
    // Threshold of a module (0 when there is no cut).
    std::uint64_t threshold(std::uint16_t module) const;
    // "none", "phase1" or a non-negative integer; UsageError otherwise.
    static ChargeCut parse(const std::string& text);
    std::string text() const;
};

struct Params {
    ChargeCut chargeCut;
    unsigned threads = 0;              // cpu: 0 = hardware concurrency
    std::map<std::string, int> tuning; // OpenCL variants: -D NAME=VALUE overrides
};

// Integer sums of one cluster: every variant produces exactly these, the doubles follow.
struct ClusterSums {
    std::uint32_t module = 0, size = 0;
    std::uint32_t minX = 0, maxX = 0, minY = 0, maxY = 0;
    std::uint64_t charge = 0;     // Σ adc
    std::uint64_t weightedX2 = 0; // Σ adc·(2x+1)
    std::uint64_t weightedY2 = 0; // Σ adc·(2y+1)
    std::uint64_t plainX2 = 0;    // Σ (2x+1), for clusters of zero charge
    std::uint64_t plainY2 = 0;    // Σ (2y+1)
    // Add one pixel.
    void add(std::uint16_t x, std::uint16_t y, std::uint16_t adc);
};

// Clusters of one event. Clusters are ordered by module, then by their number in the module.
struct Result {
    std::vector<std::int32_t> id; // per digi: cluster number within its module, -1 = dropped
    std::vector<std::int32_t> module, size, sizeX, sizeY;
    std::vector<double> charge; // Σ adc
    std::vector<double> x, y;   // charge-weighted centroid of pixel centres (index + 0.5);
                                // the plain mean for a cluster of zero charge
    std::size_t count() const { return module.size(); }
    // Filled by the runners.
    std::string device, variant;
    std::vector<TimingRecord> timings; // per label; kernel time = the records flagged kernel
};

// The per-cluster quantities from the sums (the same arithmetic for every variant).
Result makeResult(std::vector<std::int32_t> ids, const std::vector<ClusterSums>& sums);
// The same from `count` clusters whose sums sumsAt(c) gives (the device's rows, read where they
// lie: no vector of ClusterSums between them and the result).
template <class SumsAt>
Result makeResult(std::vector<std::int32_t> ids, std::size_t count, SumsAt&& sumsAt) {
    Result r;
    r.id = std::move(ids);
    r.module.resize(count), r.size.resize(count), r.sizeX.resize(count), r.sizeY.resize(count);
    r.charge.resize(count), r.x.resize(count), r.y.resize(count);
    for (std::size_t c = 0; c < count; ++c) {
        const ClusterSums s = sumsAt(c);
        r.module[c] = static_cast<std::int32_t>(s.module);
        r.size[c] = static_cast<std::int32_t>(s.size);
        r.sizeX[c] = static_cast<std::int32_t>(s.maxX - s.minX + 1);
        r.sizeY[c] = static_cast<std::int32_t>(s.maxY - s.minY + 1);
        r.charge[c] = static_cast<double>(s.charge);
        // Centres at index + 0.5: Σ w(2i+1) / (2 Σ w).
        const bool weighted = s.charge > 0;
        const double norm = 2.0 * (weighted ? static_cast<double>(s.charge) : double(s.size));
        r.x[c] = static_cast<double>(weighted ? s.weightedX2 : s.plainX2) / norm;
        r.y[c] = static_cast<double>(weighted ? s.weightedY2 : s.plainY2) / norm;
    }
    return r;
}

// InputError naming the first digi outside the 160x416 module (invalid digis are not checked).
void checkDigis(const Digis& digis);

// The CPU reference (the `cpu` variant), multithreaded over modules.
Result clusterReference(const Digis& digis, const Params& params = {},
                        const Progress& progress = {});

// Number of digis whose cluster id differs (the ids are canonical, so this is the number of
// digis whose partition differs); first index in *first (-1 when none).
std::size_t idMismatches(const Result& a, const Result& b, long long* first = nullptr);

} // namespace clscope::cluster
