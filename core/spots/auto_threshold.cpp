// global_threshold = auto: DIALS' elbow estimate (estimate_global_threshold of the dispersion
// threshold extension), made once on the first frame as DIALS does, truncated to an integer.
#include "core/spots/spots.hpp"

#include <algorithm>
#include <cmath>

namespace clscope::spots {

double autoGlobalThreshold(const Input& in) {
    const Array& a = in.frames;
    const std::size_t plane = a.frameSize();
    // Pixels above int(1.5^i), i = 1..19, over the whole first frame (DIALS ignores the mask).
    std::vector<double> x, y;
    for (int i = 1; i < 20; ++i) {
        const double g = std::floor(std::pow(1.5, i));
        std::size_t above = 0;
        for (std::size_t k = 0; k < plane; ++k)
            above += a.valueAt(k) > g;
        x.push_back(g), y.push_back(static_cast<double>(above));
    }
    const std::size_t n = x.size();
    // The steepest chord to the last point, then the point farthest from it.
    std::size_t pm = 0;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const double slope = (y[n - 1] - y[i]) / (x[n - 1] - x[i]);
        const double best = (y[n - 1] - y[pm]) / (x[n - 1] - x[pm]);
        if (slope < best) pm = i;
    }
    const double vx = y[n - 1] - y[pm], vy = -(x[n - 1] - x[pm]);
    const double length = std::sqrt(vx * vx + vy * vy);
    std::size_t pk = 0;
    double farthest = -1;
    for (std::size_t i = pm; i < n; ++i) {
        const double gap = std::abs(vx / length * (x[pm] - x[i]) + vy / length * (y[pm] - y[i]));
        if (gap > farthest) farthest = gap, pk = i - pm;
    }
    // Two points left of the elbow (Python's negative index wraps around, as in DIALS).
    long index = static_cast<long>(pk + pm) - 2;
    if (index < 0) index += static_cast<long>(n);
    return std::trunc(x[static_cast<std::size_t>(index)]);
}

} // namespace clscope::spots
