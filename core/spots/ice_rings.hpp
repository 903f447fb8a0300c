// DIALS' ice-ring filter of the per-image analysis (per_image_analysis.ice_rings_selection with
// filtering.PowderRingFilter): the d* ^2 of every reflection of hexagonal ice (a = 4.498,
// c = 7.338 Å, P6_3/mmc, systematic absences left out), and a spot is on a ring when
// |1/d^2 - d*^2(ring)| < width / 2 for any of them.
#pragma once
#include <vector>

namespace clscope::spots {

class IceRings {
  public:
    static constexpr double defaultWidth = 0.004; // DIALS' ice_rings_width, in 1/d^2 (Å^-2)

    // The rings with d*^2 up to dStarSqMax + width / 2 (beyond, no spot of d*^2 <= dStarSqMax
    // is within half a width of one).
    explicit IceRings(double dStarSqMax, double width = defaultWidth);
    // Whether a spot of resolution d (Å) lies on a ring; d*^2 is taken as 1/d^2, as DIALS does.
    bool contains(double d) const;
    const std::vector<double>& dStarSq() const { return rings_; } // ascending

  private:
    std::vector<double> rings_;
    double halfWidth_;
};

} // namespace clscope::spots
