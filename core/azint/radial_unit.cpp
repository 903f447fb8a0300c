#include "core/azint/radial_unit.hpp"

#include "core/errors.hpp"

#include <cmath>
#include <numbers>

namespace clscope::azint {

namespace {

// Each unit's pyFAI name and the `units` attribute of values in it (core/input/units.hpp's).
struct UnitNames {
    Unit unit;
    const char* pyfai;
    const char* units;
};
constexpr UnitNames unitNames[] = {{Unit::QNm, "q_nm^-1", "1/nm"},
                                   {Unit::QAngstrom, "q_A^-1", "1/angstrom"},
                                   {Unit::TwoThetaDeg, "2th_deg", "deg"},
                                   {Unit::RMm, "r_mm", "mm"}};

const UnitNames& namesOf(Unit unit) {
    for (const UnitNames& n : unitNames)
        if (n.unit == unit) return n;
    throw UsageError("azint: no such unit");
}

} // namespace

std::string unitName(Unit unit) {
    return namesOf(unit).pyfai;
}

std::string unitAttribute(Unit unit) {
    return namesOf(unit).units;
}

Unit unitFromName(const std::string& name) {
    for (Unit u : {Unit::QNm, Unit::QAngstrom, Unit::TwoThetaDeg, Unit::RMm})
        if (unitName(u) == name) return u;
    throw UsageError("azint: unknown unit '" + name + "' (q_nm^-1, q_A^-1, 2th_deg or r_mm)");
}

double unitScale(Unit unit) {
    switch (unit) {
    case Unit::QAngstrom:
        return 0.1;
    case Unit::TwoThetaDeg:
        return 180.0 / std::numbers::pi;
    case Unit::RMm:
        return 1000.0;
    default:
        return 1.0;
    }
}

double twoTheta(const LabPoint& p) {
    return std::atan2(std::sqrt(p.t1 * p.t1 + p.t2 * p.t2), p.t3);
}

double chi(const LabPoint& p) {
    return std::atan2(p.t1, p.t2);
}

double internalRadial(Unit unit, const LabPoint& p, double wavelength) {
    switch (unit) {
    case Unit::QNm:
    case Unit::QAngstrom:
        return 4.0e-9 * std::numbers::pi / wavelength * std::sin(twoTheta(p) / 2.0);
    case Unit::TwoThetaDeg:
        return twoTheta(p);
    case Unit::RMm:
        return std::sqrt(p.t1 * p.t1 + p.t2 * p.t2);
    }
    return 0;
}

} // namespace clscope::azint
