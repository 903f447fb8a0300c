// azint's detector geometry: pyFAI's PONI parameters, kept as pyFAI keeps them (metres and
// radians), read from a PONI file (core/mask's reader, versions 1 and 2) or a DIALS experiment
// list (expt.hpp).
#pragma once
#include <cstddef>
#include <string>

namespace clscope::mask {
struct PoniFile;
}

namespace clscope::azint {

struct Geometry {
    double dist = 0.1;                     // sample to PONI along the detector normal, m
    double poni1 = 0, poni2 = 0;           // PONI on the detector, m (slow, fast axis)
    double rot1 = 0, rot2 = 0, rot3 = 0;   // pyFAI's rotations, radians
    double pixel1 = 75e-6, pixel2 = 75e-6; // pixel size along rows (slow), columns (fast), m
    double wavelength = 1e-10;             // m
    std::size_t height = 0, width = 0;     // detector shape when the source gives it, else 0
};

// UsageError naming the first value that is not finite, or not > 0 where it must be.
void validate(const Geometry& g);

Geometry fromPoni(const mask::PoniFile& poni);
// A PONI file (pyFAI's text format); InputError naming the file on bad content.
Geometry readPoni(const std::string& fileName);

} // namespace clscope::azint
