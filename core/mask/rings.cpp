#include "core/mask/rings.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace clscope::mask {

namespace {

// Distance in pixels along the ray at angle a from the beam centre where q reaches target
// (bisection on a bracket that doubles until q passes it); negative when it never does.
double rayRadius(const Geometry& g, double a, double target) {
    const auto qAt = [&](double r) {
        return anglesAt(g, g.beamCenterX + r * std::cos(a), g.beamCenterY + r * std::sin(a)).q;
    };
    double lo = 0.0, hi = 1.0;
    while (qAt(hi) < target) {
        lo = hi, hi *= 2.0;
        if (hi > 1e8) return -1.0;
    }
    for (int i = 0; i < 60 && hi - lo > 1e-9 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (qAt(mid) < target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

// q (nm^-1) of a spacing d (Å): the inverse of dSpacingAngstrom.
double qOf(double dAngstrom) {
    return 20.0 * std::numbers::pi / dAngstrom;
}

} // namespace

std::vector<std::pair<double, double>> resolutionRing(const Geometry& g, double dAngstrom,
                                                      std::size_t points) {
    validate(g);
    std::vector<std::pair<double, double>> out;
    const double sinTheta = g.wavelength * 1e10 / (2.0 * dAngstrom); // Bragg: λ = 2 d sin θ
    if (!(dAngstrom > 0) || sinTheta >= std::sqrt(0.5)) return out;
    const double target = qOf(dAngstrom);
    for (std::size_t k = 0; k < points; ++k) {
        const double a = 2.0 * std::numbers::pi * static_cast<double>(k) / points;
        const double r = rayRadius(g, a, target);
        if (r < 0) return {};
        out.emplace_back(g.beamCenterX + r * std::cos(a), g.beamCenterY + r * std::sin(a));
    }
    return out;
}

std::vector<double> ringSpacings(const Geometry& g, std::size_t height, std::size_t width,
                                 std::size_t count) {
    validate(g);
    // The largest q reached along the axes through the beam centre, inside the image.
    const double w = static_cast<double>(width), h = static_cast<double>(height);
    const double cx = std::clamp(g.beamCenterX, 0.0, w), cy = std::clamp(g.beamCenterY, 0.0, h);
    double qMax = 0.0;
    for (const auto& [x, y] : {std::pair{0.0, cy}, {w, cy}, {cx, 0.0}, {cx, h}})
        qMax = std::max(qMax, anglesAt(g, x, y).q);
    const double qMin = anglesAt(g, g.beamCenterX + 4.0, g.beamCenterY).q; // off the beam stop
    std::vector<double> fit;
    for (double d : {50.0, 20.0, 10.0, 7.0, 5.0, 4.0, 3.0, 2.5, 2.0, 1.5, 1.2, 1.0, 0.8})
        if (qOf(d) < qMax && qOf(d) > qMin && g.wavelength * 1e10 / (2 * d) < std::sqrt(0.5))
            fit.push_back(d);
    if (fit.size() <= count) return fit;
    if (count < 2) return {fit.begin(), fit.begin() + static_cast<std::ptrdiff_t>(count)};
    std::vector<double> out;
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(fit[static_cast<std::size_t>(
            std::lround(static_cast<double>(i * (fit.size() - 1)) / (count - 1)))]);
    return out;
}

std::vector<double> centreRadii(std::size_t height, std::size_t width) {
    std::vector<double> r(height * width);
    const double cy = (static_cast<double>(height) - 1) / 2,
                 cx = (static_cast<double>(width) - 1) / 2;
    for (std::size_t y = 0; y < height; ++y)
        for (std::size_t x = 0; x < width; ++x)
            r[y * width + x] = std::hypot(static_cast<double>(y) - cy, static_cast<double>(x) - cx);
    return r;
}

LabelMask ringLabels(std::size_t height, std::size_t width, double ringWidth) {
    const std::vector<double> r = centreRadii(height, width);
    LabelMask labels{height, width, std::vector<std::int32_t>(r.size())};
    for (std::size_t i = 0; i < r.size(); ++i)
        labels.labels[i] = static_cast<std::int32_t>(std::floor(r[i] / ringWidth));
    return labels;
}

} // namespace clscope::mask
