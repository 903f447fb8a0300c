// spots --layout dials (DESIGN.md §3 "Interchange", docs/INTERCHANGE.md): the spots as the
// reflection table dials.find_spots writes (strong.refl), in DIALS' msgpack file format
// (dials/array_family/reflection_table_msgpack_adapter.h), which
// flex.reflection_table.from_file loads and dials.index takes.
#pragma once
#include "core/spots/spots.hpp"

#include <string>
#include <vector>

namespace clscope::spots {

// ["dials::af::reflection_table", 1, {"identifiers": {}, "nrows": N, "data": {NAME: [TYPE,
// [N, BYTES]]}}], each column's values as raw little-endian bytes: id (int, 0), panel
// (std::size_t, 0), flags (std::size_t, strong = 32), bbox (int6: x0, x1, y0, y1, z0, z1,
// half-open, z the frame), xyzobs.px.value (vec3<double>: the centroid, z the frame centroid),
// xyzobs.px.variance (vec3<double>: the centroid's variance as DIALS gives it), intensity.sum.
// value and .variance (double: Σv both), n_signal (int: the spot's pixels).
std::string dialsReflectionTable(const std::vector<Spot>& spots);

// DIALS' strong flag (reflection_table.flags.strong).
constexpr std::uint64_t dialsStrongFlag = 32;

} // namespace clscope::spots
