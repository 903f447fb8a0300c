#include "ui/azint/azint_bins_overlay.hpp"

#include "core/azint/binning.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/geometry_source.hpp"

#include <algorithm>

namespace clscope::ui {

namespace {
constexpr std::size_t bandsShown = 24;
} // namespace

OverlayData azintBinsOverlay(const ParamSet& params, const H5Reader& file, std::size_t height,
                             std::size_t width) {
    const azint::Params p = azint::Algorithm().parameters(params);
    const azint::GeometrySource geometry = azint::resolveGeometry(params, file, height, width);
    const azint::Binning binning = azint::computeBinning(
        azint::computePixelMap(geometry.geometry, p, height, width, {}, {}), p);
    // Bands of k bins (at most bandsShown of them): every bin's boundary would cover the image.
    const std::size_t k =
        std::max<std::size_t>(1, (binning.radialBins + bandsShown - 1) / bandsShown);
    OverlayData o;
    o.name = "azint bins";
    o.owner = "azint";
    o.width = width, o.height = height;
    o.labels.reserve(binning.binOfPixel.size());
    for (std::int32_t bin : binning.binOfPixel)
        o.labels.push_back(bin < 0 ? 0
                                   : std::int32_t(std::size_t(bin) % binning.radialBins / k) + 1);
    o.opacity = 0.25;
    o.contours = true;
    const QString unit = QString::fromStdString(azint::unitName(p.unit));
    o.labelText = [centres = binning.radialCentres, unit, k](std::int32_t label) {
        const std::size_t first = std::size_t(label - 1) * k;
        const std::size_t last = std::min(first + k, centres.size()) - 1;
        return QString("azint bins %1–%2: %3 %4 – %5")
            .arg(first)
            .arg(last)
            .arg(unit)
            .arg(centres.at(first), 0, 'g', 4)
            .arg(centres.at(last), 0, 'g', 4);
    };
    return o;
}

} // namespace clscope::ui
