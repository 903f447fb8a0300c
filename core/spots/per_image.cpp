#include "core/spots/per_image.hpp"

#include "core/azint/pixel_geometry.hpp"
#include "core/range_pool.hpp"
#include "core/spots/ice_rings.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>

namespace clscope::spots {

double spotDStarSq(const azint::PixelGeometry& pixels, double x, double y) {
    const azint::Geometry& g = pixels.geometry();
    const azint::LabPoint p = pixels.atPosition(y, x);
    const double r = std::sqrt(p.t1 * p.t1 + p.t2 * p.t2 + p.t3 * p.t3);
    const double k = 1.0 / (g.wavelength * 1e10); // 1/λ in Å^-1
    const double s1 = p.t1 / r * k, s2 = p.t2 / r * k, s3 = p.t3 / r * k - k;
    const double norm = std::sqrt(s1 * s1 + s2 * s2 + s3 * s3);
    return norm * norm; // flex.pow2(rlp.norms())
}

ImageStats imageStats(const std::vector<SpotReflection>& all) {
    std::vector<SpotReflection> spots;
    std::copy_if(all.begin(), all.end(), std::back_inserter(spots),
                 [](const SpotReflection& s) { return s.dStarSq > 0; });
    ImageStats s;
    s.nSpotsTotal = static_cast<std::int64_t>(spots.size());
    if (spots.empty()) return s;
    double dStarSqMax = 0; // of the lowest d, the filter's d_min
    for (const SpotReflection& r : spots) {
        const double d = 1.0 / std::sqrt(r.dStarSq);
        dStarSqMax = std::max(dStarSqMax, 1.0 / (d * d));
        s.nSpots4A += d > 4;
    }
    const IceRings rings(dStarSqMax);
    std::vector<bool> ice(spots.size());
    for (std::size_t i = 0; i < spots.size(); ++i) {
        ice[i] = rings.contains(1.0 / std::sqrt(spots[i].dStarSq));
        if (!ice[i]) ++s.nSpotsNoIce, s.totalIntensity += spots[i].intensity;
    }
    if (s.nSpotsNoIce > 10) s.estimatedDMin = estimateResolutionLimit(spots, ice);
    return s;
}

PerImageStats perImageStats(const std::vector<Spot>& spots, std::size_t images,
                            const azint::Geometry& g) {
    const azint::PixelGeometry pixels(g, azint::Positions::Float64);
    std::vector<std::vector<SpotReflection>> byImage(images);
    for (const Spot& s : spots) {
        const double image = std::floor(s.z);
        if (image >= 0 && image < static_cast<double>(images))
            byImage[static_cast<std::size_t>(image)].push_back(
                {spotDStarSq(pixels, s.x, s.y), s.intensity});
    }
    // Images are independent: analysed over the host's cores (a 16M series' hundreds of spots
    // an image took ~1.7 ms an image on one).
    std::vector<ImageStats> stats(images);
    parallelRanges(images, std::min<std::size_t>(images / 4 + 1, 64),
                   [&](std::size_t begin, std::size_t end) {
                       for (std::size_t i = begin; i < end; ++i)
                           stats[i] = imageStats(byImage[i]);
                   });
    PerImageStats out;
    for (const ImageStats& s : stats) {
        out.nSpotsTotal.push_back(s.nSpotsTotal), out.nSpotsNoIce.push_back(s.nSpotsNoIce);
        out.nSpots4A.push_back(s.nSpots4A), out.totalIntensity.push_back(s.totalIntensity);
        out.estimatedDMin.push_back(s.estimatedDMin);
    }
    return out;
}

PerImageStats perImageStats(const Result& r, const azint::Geometry& g) {
    const std::size_t images = r.shape.size() == 3 ? r.shape[0] : 1;
    return perImageStats(r.spots, images, g);
}

std::string perImageCsv(const PerImageStats& s) {
    std::ostringstream out;
    out.precision(17);
    out << "image,n_spots_total,n_spots_no_ice,n_spots_4A,total_intensity,estimated_d_min\n";
    for (std::size_t i = 0; i < s.images(); ++i)
        out << i << ',' << s.nSpotsTotal[i] << ',' << s.nSpotsNoIce[i] << ',' << s.nSpots4A[i]
            << ',' << s.totalIntensity[i] << ',' << s.estimatedDMin[i] << '\n';
    return out.str();
}

} // namespace clscope::spots
