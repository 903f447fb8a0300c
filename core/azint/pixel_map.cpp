#include "core/azint/pixel_map.hpp"

#include "core/range_pool.hpp"

#include <algorithm>

namespace clscope::azint {

namespace {

double normalization(const PixelGeometry& pg, const Params& p, std::size_t j, std::size_t i) {
    double c = 1.0;
    if (p.solidAngle) c *= pg.solidAngle(j, i);
    if (p.polarization) c *= pg.polarization(j, i, *p.polarization);
    return c;
}

bool bad(const PixelMask& m, std::size_t k) {
    return !m.bad.empty() && m.bad[k] != 0;
}

} // namespace

PixelMap computePixelMap(const Geometry& g, const Params& p, std::size_t height, std::size_t width,
                         const PixelMask& mask, const PixelMask& pixelMask) {
    const PixelGeometry pg(g, p.positions);
    const std::size_t n = height * width;
    PixelMap map{height,
                 width,
                 std::vector<double>(n),
                 std::vector<double>(n),
                 std::vector<double>(n),
                 std::vector<std::uint8_t>(n)};
    // Rows over the cores: every pixel's values depend on that pixel alone (the same bits).
    parallelRanges(height, std::min<std::size_t>(height, 64), [&](std::size_t j0, std::size_t j1) {
        for (std::size_t j = j0; j < j1; ++j)
            for (std::size_t i = 0; i < width; ++i) {
                const std::size_t k = j * width + i;
                const LabPoint point = pg.at(j, i);
                map.radial[k] = internalRadial(p.unit, point, g.wavelength);
                map.chi[k] = chi(point);
                map.normalization[k] = normalization(pg, p, j, i);
                map.masked[k] = bad(mask, k) || bad(pixelMask, k);
            }
    });
    return map;
}

} // namespace clscope::azint
