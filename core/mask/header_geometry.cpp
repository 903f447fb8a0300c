#include "core/mask/header_geometry.hpp"

namespace clscope::mask {

Geometry fromHeader(const stream::DetectorHeader& d) {
    Geometry g;
    g.beamCenterX = d.beamCenterX, g.beamCenterY = d.beamCenterY, g.distance = d.distance;
    g.pixelSizeX = d.pixelSizeX, g.pixelSizeY = d.pixelSizeY, g.wavelength = d.wavelength;
    return g;
}

std::optional<Geometry> headerGeometry(const stream::StartMessage& start) {
    if (!start.detector) return std::nullopt;
    const Geometry g = fromHeader(*start.detector);
    try {
        validate(g);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return g;
}

} // namespace clscope::mask
