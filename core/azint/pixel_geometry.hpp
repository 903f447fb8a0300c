// Where each pixel centre of a detector lies in pyFAI's lab frame, and its solid angle and
// polarisation factor, by pyFAI's formulas (geometry.py, ext/_geometry.pyx).
#pragma once
#include "core/azint/geometry.hpp"
#include "core/azint/radial_unit.hpp"

namespace clscope::azint {

// Pixel positions on the detector: exact in float64 (clscope's), or rounded as pyFAI rounds
// them (its generic detector computes pixel1 * (row + 0.5) - poni1 in float32, then the rest
// in float64): only for comparing with pyFAI bit for bit, never a user's choice.
enum class Positions { Float64, PyFaiFloat32 };

class PixelGeometry {
  public:
    PixelGeometry(const Geometry& g, Positions positions);

    // The centre of pixel (row, column), and the cosine of its incidence angle on the detector.
    LabPoint at(std::size_t row, std::size_t column) const;
    double cosIncidence(std::size_t row, std::size_t column) const;
    // Any point of the detector, in pixels from its corner (a centre is index + 0.5), in float64.
    LabPoint atPosition(double row, double column) const;
    // pyFAI's solidAngleArray (relative to the PONI): cos(incidence)^3.
    double solidAngle(std::size_t row, std::size_t column) const;
    // pyFAI's polarization(factor): 0.5 (1 + cos^2 2th - factor cos(2 chi) (1 - cos^2 2th)).
    double polarization(std::size_t row, std::size_t column, double factor) const;
    const Geometry& geometry() const { return g_; }

  private:
    LabPoint lab(double p1, double p2) const; // pyFAI's f_t1, f_t2, f_t3 of p1, p2
    // Detector coordinates of the centre relative to the PONI (pyFAI's p1, p2).
    double p1(std::size_t row) const;
    double p2(std::size_t column) const;

    Geometry g_;
    Positions positions_;
    double c1_, c2_, c3_, s1_, s2_, s3_; // cosines and sines of rot1..rot3
    double m2_, m3_, m5_, m6_;           // pyFAI's bracketed terms of t1 and t2
};

} // namespace clscope::azint
