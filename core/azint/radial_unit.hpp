// azint's radial units, as pyFAI names and computes them: each is binned in pyFAI's internal
// unit (q in nm^-1, 2theta in radians, r in metres) and shown times the unit's scale.
#pragma once
#include <string>

namespace clscope::azint {

enum class Unit { QNm, QAngstrom, TwoThetaDeg, RMm };

std::string unitName(Unit unit);      // "q_nm^-1", "q_A^-1", "2th_deg", "r_mm"
std::string unitAttribute(Unit unit); // a `units` attribute: "1/nm", "1/angstrom", "deg", "mm"
Unit unitFromName(const std::string& name); // UsageError naming the known units
// Shown value = internal value * scale (pyFAI's Unit.scale): 1, 0.1, 180/pi, 1000.
double unitScale(Unit unit);

// A pixel centre in pyFAI's lab frame (metres): t3 along the beam, t1 and t2 across it (t1 the
// detector's slow axis, t2 its fast one when nothing is rotated).
struct LabPoint {
    double t1 = 0, t2 = 0, t3 = 0;
};
// pyFAI's formulas (ext/_geometry.pyx): 2theta = atan2(sqrt(t1^2 + t2^2), t3) (rad),
// q = 4e-9 pi / lambda * sin(2theta / 2) (nm^-1), r = sqrt(t1^2 + t2^2) (m), chi = atan2(t1, t2).
double twoTheta(const LabPoint& p);
double chi(const LabPoint& p);
// The radial value in the unit's internal form (lambda in metres).
double internalRadial(Unit unit, const LabPoint& p, double wavelength);

} // namespace clscope::azint
