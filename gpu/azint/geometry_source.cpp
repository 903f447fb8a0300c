#include "gpu/azint/geometry_source.hpp"

#include "core/azint/expt.hpp"
#include "core/azint/header_geometry.hpp"
#include "core/errors.hpp"
#include "core/mask/mask_io.hpp"

namespace clscope::azint {

namespace {

std::string textParam(const ParamSet& params, const std::string& name) {
    return params.has(name) ? params.text(name) : std::string();
}

GeometrySource fromParamsOrFile(const ParamSet& params, const H5Reader& input,
                                const stream::StartMessage* start) {
    if (auto named = namedGeometry(params)) return *named;
    const auto g = mask::readGeometry(input);
    if (g) return {fromPoni(mask::PoniFile{*g}), input.where(mask::paths::geometry)};
    if (start)
        if (auto sent = headerGeometry(*start))
            return {*sent, "the start message of " + input.fileName()};
    throw UsageError("azint needs a geometry: --poni FILE, --expt FILE, or " +
                     mask::paths::geometry + " in " + input.fileName() +
                     (start ? " (the start message sent none)" : ""));
}

} // namespace

std::optional<GeometrySource> namedGeometry(const ParamSet& params) {
    const std::string poni = textParam(params, "poni"), expt = textParam(params, "expt");
    if (!poni.empty() && !expt.empty())
        throw UsageError("azint: give the geometry once: --poni or --expt, not both");
    if (!poni.empty()) return GeometrySource{readPoni(poni), "poni " + poni};
    if (!expt.empty()) return GeometrySource{readExpt(expt), "expt " + expt};
    return std::nullopt;
}

GeometrySource resolveGeometry(const ParamSet& params, const H5Reader& input, std::size_t height,
                               std::size_t width, const stream::StartMessage* start) {
    GeometrySource s = fromParamsOrFile(params, input, start);
    validate(s.geometry);
    const Geometry& g = s.geometry;
    if (g.height && g.width && (g.height != height || g.width != width))
        throw InputError(s.origin + ": the detector is " + std::to_string(g.width) + "x" +
                         std::to_string(g.height) + " pixels, the frames " + std::to_string(width) +
                         "x" + std::to_string(height));
    return s;
}

void writeFileGeometry(H5Writer& out, const Geometry& g) {
    mask::Geometry m;
    m.distance = g.dist;
    m.pixelSizeY = g.pixel1, m.pixelSizeX = g.pixel2;
    m.beamCenterY = g.poni1 / g.pixel1, m.beamCenterX = g.poni2 / g.pixel2;
    m.rot1 = g.rot1, m.rot2 = g.rot2, m.rot3 = g.rot3;
    m.wavelength = g.wavelength;
    mask::writeGeometry(out, m);
}

} // namespace clscope::azint
