// DIALS' per-image analysis of the spots (dials.algorithms.spot_finding.per_image_analysis
// .stats_per_image, DIALS 3.12) from a detector geometry: per image the number of spots, of
// spots off the ice rings, of spots to 4 Å, the total intensity of the spots off the rings, and
// the estimated resolution limit (resolution_estimate.hpp). DESIGN.md §5 "Per-image analysis".
#pragma once
#include "core/azint/geometry.hpp"
#include "core/azint/pixel_geometry.hpp"
#include "core/spots/resolution_estimate.hpp"
#include "core/spots/spots.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clscope::spots {

// One value per image, in image order.
struct PerImageStats {
    std::vector<std::int64_t> nSpotsTotal, nSpotsNoIce, nSpots4A;
    std::vector<double> totalIntensity, estimatedDMin; // d_min -1: not estimated (DIALS' value)
    std::size_t images() const { return nSpotsTotal.size(); }
};

// |s1 - s0|^2 (Å^-2) of a spot centroid (x, y in pixels, centres at index + 0.5): the lab
// position of (x, y) on the detector by pyFAI's formulas, s1 along it and s0 along the beam,
// both of length 1/λ.
double spotDStarSq(const azint::PixelGeometry& pixels, double x, double y);

// The statistics of one image's spots, as stats_for_reflection_table (spots with d* = 0 left
// out, ice-ring width 0.004, the resolution estimate when more than 10 spots are off the rings).
struct ImageStats {
    std::int64_t nSpotsTotal = 0, nSpotsNoIce = 0, nSpots4A = 0;
    double totalIntensity = 0, estimatedDMin = -1;
};
ImageStats imageStats(const std::vector<SpotReflection>& spots);

// Images 0 .. images-1 of the run; a spot belongs to image floor(z) (its frame centroid, as
// DIALS takes floor of xyzobs.px.value's z). Spots in table order.
PerImageStats perImageStats(const std::vector<Spot>& spots, std::size_t images,
                            const azint::Geometry& g);
// The same for a run's result: one image a frame.
PerImageStats perImageStats(const Result& r, const azint::Geometry& g);

// One line an image: "image,n_spots_total,n_spots_no_ice,n_spots_4A,total_intensity,
// estimated_d_min" (image from 0; floats to 17 digits).
std::string perImageCsv(const PerImageStats& s);

} // namespace clscope::spots
