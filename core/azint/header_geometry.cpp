#include "core/azint/header_geometry.hpp"

#include "core/mask/header_geometry.hpp"

namespace clscope::azint {

std::optional<Geometry> headerGeometry(const stream::StartMessage& start) {
    return headerGeometry(start.detector, start.height, start.width);
}

std::optional<Geometry> headerGeometry(const std::optional<stream::DetectorHeader>& detector,
                                       std::size_t height, std::size_t width) {
    if (!detector) return std::nullopt;
    const Geometry g = fromPoni({mask::fromHeader(*detector), "Detector", height, width});
    try {
        validate(g);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return g;
}

} // namespace clscope::azint
