// The DIALS tests of one pixel, in DIALS' own expression order (local.h), shared by the CPU
// reference; resources/kernels/spots.cl repeats them word for word. Keep the two identical.
#pragma once
#include <cmath>

namespace clscope::spots {

// Index of dispersion above its Poisson bound (sigma_background test). m, x, y are exact
// window sums (count, sum of values, sum of squares) converted to double.
inline bool backgroundTest(double m, double x, double y, double gain, double sigmaB, bool useGain) {
    if (!useGain) {
        const double a = m * y - x * x - x * (m - 1);
        const double c = x * sigmaB * std::sqrt(2 * (m - 1));
        return a > c;
    }
    const double a = m * y - x * x;
    const double c = gain * x * (m - 1 + sigmaB * std::sqrt(2 * (m - 1)));
    return a > c;
}

// Pixel above the local mean (sigma_strong test of `dispersion`).
inline bool strongTest(double m, double x, double v, double gain, double sigmaS, bool useGain) {
    const double b = m * v - x;
    const double d = useGain ? sigmaS * std::sqrt(gain * x * m) : sigmaS * std::sqrt(x * m);
    return b > d;
}

// Pixel above the background mean of `dispersion_extended` (m, x over background pixels).
inline bool extendedStrongTest(double m, double x, double v, double gain, double sigmaS,
                               bool useGain) {
    const double mean = (m >= 2 ? (x / m) : 0);
    return useGain ? v >= (mean + sigmaS * std::sqrt(gain * mean))
                   : v >= (mean + sigmaS * std::sqrt(mean));
}

} // namespace clscope::spots
