// A DIALS experiment list (.expt, JSON as dxtbx writes it) as azint's geometry: the first
// experiment's beam (direction, wavelength) and its detector's single panel (fast and slow axes,
// origin, pixel size, image size) converted to the PONI parameters that put every pixel centre
// where DIALS puts it. pyFAI's lab frame: t3 along the beam (-direction), t2 the lab x axis
// made normal to the beam, t1 = t3 x t2 (DIALS' usual detector, fast = +x, slow = -y, has then
// no rotation).
#pragma once
#include "core/azint/geometry.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace clscope::azint {

// `source` names the text in errors. InputError on missing or malformed entries, several
// panels, or axes that are not orthonormal.
Geometry parseExpt(const std::string& text, const std::string& source);
Geometry readExpt(const std::string& fileName);

// The grid of a grid scan as `dials.import ... grid_size=NX,NY` records it (the first
// experiment's imageset an "ImageGrid" with "grid_size": [NX, NY]): NX images a row (the
// columns, dxtbx's first), NY rows. None for another imageset or none; InputError for a
// grid_size that is not two whole numbers >= 1.
struct ExptGrid {
    std::size_t columns = 0, rows = 0;
};
std::optional<ExptGrid> parseExptGrid(const std::string& text, const std::string& source);
std::optional<ExptGrid> readExptGrid(const std::string& fileName);

} // namespace clscope::azint
