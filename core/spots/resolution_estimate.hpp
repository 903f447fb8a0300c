// DIALS' resolution estimate of one image's spots (per_image_analysis.estimate_resolution_limit,
// DIALS 3.12), step for step in the same floating-point order: ln(I/σ) against d*^2, bins of
// equal population (binner_equal_population: 20 a bin, 5 to 20 bins), Wilson outliers per bin,
// the 10th and 90th percentile of each bin, a straight line through each set of percentiles, and
// the highest d*^2 among the non-ice, non-outlier spots below the upper line.
#pragma once
#include <vector>

namespace clscope::spots {

struct SpotReflection {
    double dStarSq = 0;   // |s1 - s0|^2, Å^-2 (> 0)
    double intensity = 0; // Σv; its variance is Σv too (DIALS' spot finder, gain 1)
};

// The estimated d_min (Å), or -1 when the lines are parallel or no spot lies below the upper one.
// `ice`: one flag a spot. Spots of variance <= 0 are DIALS' unsupported case: none may be given.
double estimateResolutionLimit(const std::vector<SpotReflection>& spots,
                               const std::vector<bool>& ice);

} // namespace clscope::spots
