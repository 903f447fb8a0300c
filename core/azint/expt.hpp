// A DIALS experiment list (.expt, JSON as dxtbx writes it) as azint's geometry: the first
// experiment's beam (direction, wavelength) and its detector's single panel (fast and slow axes,
// origin, pixel size, image size) converted to the PONI parameters that put every pixel centre
// where DIALS puts it. pyFAI's lab frame: t3 along the beam (-direction), t2 the lab x axis
// made normal to the beam, t1 = t3 x t2 (DIALS' usual detector, fast = +x, slow = -y, has then
// no rotation).
#pragma once
#include "core/azint/geometry.hpp"

#include <string>

namespace clscope::azint {

// `source` names the text in errors. InputError on missing or malformed entries, several
// panels, or axes that are not orthonormal.
Geometry parseExpt(const std::string& text, const std::string& source);
Geometry readExpt(const std::string& fileName);

} // namespace clscope::azint
