#include "core/azint/pixel_geometry.hpp"

#include <cmath>

namespace clscope::azint {

namespace {

// pyFAI's generic detector: float32 index + 0.5, times float32(pixel), minus float32(poni).
double float32Offset(std::size_t index, double pixel, double poni) {
    const float centre = static_cast<float>(index) + 0.5f;
    const float position = static_cast<float>(pixel) * centre;
    const float offset = position - static_cast<float>(poni);
    return offset;
}

} // namespace

PixelGeometry::PixelGeometry(const Geometry& g, Positions positions)
    : g_(g), positions_(positions) {
    validate(g);
    c1_ = std::cos(g.rot1), c2_ = std::cos(g.rot2), c3_ = std::cos(g.rot3);
    s1_ = std::sin(g.rot1), s2_ = std::sin(g.rot2), s3_ = std::sin(g.rot3);
    m2_ = c3_ * s1_ * s2_ - c1_ * s3_, m3_ = c1_ * c3_ * s2_ + s1_ * s3_;
    m5_ = c1_ * c3_ + s1_ * s2_ * s3_, m6_ = -(c3_ * s1_) + c1_ * s2_ * s3_;
}

double PixelGeometry::p1(std::size_t row) const {
    if (positions_ == Positions::PyFaiFloat32) return float32Offset(row, g_.pixel1, g_.poni1);
    return (static_cast<double>(row) + 0.5) * g_.pixel1 - g_.poni1;
}

double PixelGeometry::p2(std::size_t column) const {
    if (positions_ == Positions::PyFaiFloat32) return float32Offset(column, g_.pixel2, g_.poni2);
    return (static_cast<double>(column) + 0.5) * g_.pixel2 - g_.poni2;
}

LabPoint PixelGeometry::at(std::size_t row, std::size_t column) const {
    return lab(p1(row), p2(column));
}

LabPoint PixelGeometry::atPosition(double row, double column) const {
    return lab(row * g_.pixel1 - g_.poni1, column * g_.pixel2 - g_.poni2);
}

LabPoint PixelGeometry::lab(double a, double b) const {
    const double L = g_.dist;
    // pyFAI's f_t1, f_t2, f_t3, in its expression order (the same bits).
    return {a * c2_ * c3_ + b * m2_ - L * m3_, a * c2_ * s3_ + b * m5_ - L * m6_,
            a * s2_ - b * c2_ * s1_ + L * c1_ * c2_};
}

double PixelGeometry::cosIncidence(std::size_t row, std::size_t column) const {
    const double a = p1(row), b = p2(column), L = g_.dist;
    return L / std::sqrt((L * L) + ((a * a) + (b * b)));
}

double PixelGeometry::solidAngle(std::size_t row, std::size_t column) const {
    return std::pow(cosIncidence(row, column), 3.0);
}

double PixelGeometry::polarization(std::size_t row, std::size_t column, double factor) const {
    const LabPoint p = at(row, column);
    const double c = std::cos(twoTheta(p));
    const double cos2 = c * c;
    return 0.5 * (1.0 + cos2 - factor * std::cos(2.0 * chi(p)) * (1.0 - cos2));
}

} // namespace clscope::azint
