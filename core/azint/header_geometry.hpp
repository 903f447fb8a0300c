// A detector stream's geometry (DECTRIS Stream V2's start message, core/stream/stream_v2.hpp)
// as PONI parameters: poni = beam centre × pixel size, no rotation (pyFAI's reading of an EIGER
// header), the frames' size from the start message.
#pragma once
#include "core/azint/geometry.hpp"
#include "core/stream/stream_v2.hpp"

#include <optional>

namespace clscope::azint {

// Nullopt when the start message sent no geometry or one that is not usable (a detector not set
// up sends zeros: no geometry, not a failed series).
std::optional<Geometry> headerGeometry(const stream::StartMessage& start);
// The same of a header as sent, for frames of height x width.
std::optional<Geometry> headerGeometry(const std::optional<stream::DetectorHeader>& detector,
                                       std::size_t height, std::size_t width);

} // namespace clscope::azint
