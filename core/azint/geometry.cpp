#include "core/azint/geometry.hpp"

#include "core/errors.hpp"
#include "core/mask/geometry.hpp"

#include <cmath>

namespace clscope::azint {

namespace {

void requireFinite(double v, const char* name) {
    if (!std::isfinite(v))
        throw UsageError(std::string("azint geometry: ") + name + " must be finite");
}

void requirePositive(double v, const char* name) {
    requireFinite(v, name);
    if (!(v > 0)) throw UsageError(std::string("azint geometry: ") + name + " must be > 0");
}

} // namespace

void validate(const Geometry& g) {
    requirePositive(g.dist, "distance");
    requireFinite(g.poni1, "poni1");
    requireFinite(g.poni2, "poni2");
    requireFinite(g.rot1, "rot1");
    requireFinite(g.rot2, "rot2");
    requireFinite(g.rot3, "rot3");
    requirePositive(g.pixel1, "pixel1");
    requirePositive(g.pixel2, "pixel2");
    requirePositive(g.wavelength, "wavelength");
}

Geometry fromPoni(const mask::PoniFile& poni) {
    const mask::Geometry& m = poni.geometry;
    Geometry g;
    g.dist = m.distance;
    g.pixel1 = m.pixelSizeY;
    g.pixel2 = m.pixelSizeX;
    // core/mask keeps the PONI in pixels: poni1 / pixel1 * pixel1 is poni1 to the last bit or one.
    g.poni1 = m.beamCenterY * m.pixelSizeY;
    g.poni2 = m.beamCenterX * m.pixelSizeX;
    g.rot1 = m.rot1, g.rot2 = m.rot2, g.rot3 = m.rot3;
    g.wavelength = m.wavelength;
    g.height = poni.height, g.width = poni.width;
    return g;
}

Geometry readPoni(const std::string& fileName) {
    return fromPoni(mask::readPoni(fileName));
}

} // namespace clscope::azint
