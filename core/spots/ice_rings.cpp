#include "core/spots/ice_rings.hpp"

#include <algorithm>
#include <cmath>

namespace clscope::spots {

namespace {

constexpr double iceA = 4.498, iceC = 7.338; // Å, DIALS' unit cell of hexagonal ice

// P6_3/mmc: hh(-2h)l and its equivalents (h = k, k = -2h, h = -2k) need l even.
bool absent(int h, int k, int l) {
    return l % 2 != 0 && (h == k || k == -2 * h || h == -2 * k);
}

// The hexagonal cell's reciprocal metric: d*^2 = (4/3)(h^2 + hk + k^2)/a^2 + l^2/c^2.
double dStarSqOf(int h, int k, int l) {
    return 4.0 * (h * h + h * k + k * k) / (3.0 * iceA * iceA) + l * l / (iceC * iceC);
}

} // namespace

IceRings::IceRings(double dStarSqMax, double width) : halfWidth_(width / 2.0) {
    const double limit = dStarSqMax + halfWidth_;
    const double dStarMax = std::sqrt(std::max(limit, 0.0));
    // |h|, |k| <= a d*max (2/sqrt(3) of it covers the hexagonal cell), |l| <= c d*max.
    const int hk = static_cast<int>(std::ceil(iceA * dStarMax * 2.0 / std::sqrt(3.0))) + 1;
    const int lMax = static_cast<int>(std::ceil(iceC * dStarMax)) + 1;
    for (int h = -hk; h <= hk; ++h)
        for (int k = -hk; k <= hk; ++k)
            for (int l = 0; l <= lMax; ++l) {
                if ((h == 0 && k == 0 && l == 0) || absent(h, k, l)) continue;
                const double s = dStarSqOf(h, k, l);
                if (s <= limit) rings_.push_back(s);
            }
    std::sort(rings_.begin(), rings_.end());
    rings_.erase(std::unique(rings_.begin(), rings_.end()), rings_.end());
}

bool IceRings::contains(double d) const {
    const double s = 1.0 / (d * d); // uctbx.d_as_d_star_sq
    // DIALS' test, |s - ring| < half width, on the rings a full width around s (a margin for
    // rounding: the test decides).
    auto ring = std::lower_bound(rings_.begin(), rings_.end(), s - 2.0 * halfWidth_);
    for (; ring != rings_.end() && *ring <= s + 2.0 * halfWidth_; ++ring)
        if (std::abs(s - *ring) < halfWidth_) return true;
    return false;
}

} // namespace clscope::spots
