// The cluster synthetic dataset (clscope-cli generate digis, the bench and the demo).
#pragma once
#include "core/cluster/digis.hpp"
#include "core/data.hpp"

#include <cstdint>

namespace clscope::synthetic {

// digis (seed 001): a CMS Phase-1 event (barrel layers 1-4, 6 forward half-disks; defaults ~ PU
// 50): per-layer occupancy, cluster length growing with |eta| in the barrel, Landau charges in e-,
// pixel noise and threshold, isolated noise hits, a few duplicated and invalid digis; modules
// in shuffled order, digis shuffled within each module (see core/cluster/synthetic.cpp).
struct DigisParams {
    std::size_t modules = 1856;
    double clustersPerModule = 9.7; // mean over all modules
    std::size_t duplicates = 20, invalid = 10;
    std::uint64_t seed = 0;
};
Digis generateDigis(const DigisParams& p);

} // namespace clscope::synthetic
