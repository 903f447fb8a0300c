// A detector stream's geometry (DECTRIS Stream V2's start message, core/stream/stream_v2.hpp)
// as core/mask keeps it: beam centre in pixels, pixel size, distance and wavelength, no
// rotation. azint's PONI of a header (core/azint/header_geometry) is made from it.
#pragma once
#include "core/mask/geometry.hpp"
#include "core/stream/stream_v2.hpp"

#include <optional>

namespace clscope::mask {

// The header's values as they are.
Geometry fromHeader(const stream::DetectorHeader& detector);
// Nullopt when the start message sent no geometry or one that is not usable (a detector not set
// up sends zeros).
std::optional<Geometry> headerGeometry(const stream::StartMessage& start);

} // namespace clscope::mask
