#include "core/azint/header_geometry.hpp"

namespace clscope::azint {

std::optional<Geometry> headerGeometry(const stream::StartMessage& start) {
    return headerGeometry(start.detector, start.height, start.width);
}

std::optional<Geometry> headerGeometry(const std::optional<stream::DetectorHeader>& detector,
                                       std::size_t height, std::size_t width) {
    if (!detector) return std::nullopt;
    const stream::DetectorHeader& d = *detector;
    Geometry g;
    g.pixel1 = d.pixelSizeY, g.pixel2 = d.pixelSizeX;
    g.poni1 = d.beamCenterY * g.pixel1, g.poni2 = d.beamCenterX * g.pixel2;
    g.dist = d.distance, g.wavelength = d.wavelength;
    g.height = height, g.width = width;
    try {
        validate(g);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return g;
}

} // namespace clscope::azint
