// The kept per-geometry preparations of OpenCL azint runs: the last one of each device and
// method.
#include "gpu/azint/prepared_geometry.hpp"

#include <map>
#include <mutex>
#include <tuple>
#include <utility>

namespace clscope::azint {

namespace {

bool sameGeometry(const Geometry& a, const Geometry& b) {
    return std::tie(a.dist, a.poni1, a.poni2, a.rot1, a.rot2, a.rot3, a.pixel1, a.pixel2,
                    a.wavelength) == std::tie(b.dist, b.poni1, b.poni2, b.rot1, b.rot2, b.rot3,
                                              b.pixel1, b.pixel2, b.wavelength);
}

bool sameParams(const Params& a, const Params& b) {
    return std::tie(a.unit, a.bins, a.azimuthBins, a.radialRange, a.azimuthRange, a.solidAngle,
                    a.polarization, a.positions) ==
           std::tie(b.unit, b.bins, b.azimuthBins, b.radialRange, b.azimuthRange, b.solidAngle,
                    b.polarization, b.positions);
}

bool sameMask(const PixelMask& a, const PixelMask& b) {
    return a.height == b.height && a.width == b.width && a.bad == b.bad;
}

// A kept preparation with the masks of its key.
struct Kept {
    GeometryKey key;
    PixelMask mask, pixelMask;
    std::shared_ptr<const PreparedGeometry> prepared;

    bool matches(const GeometryKey& k) const {
        return k.device == key.device && k.method == key.method && k.tiles == key.tiles &&
               k.height == key.height && k.width == key.width &&
               sameGeometry(k.geometry, key.geometry) && sameParams(k.params, key.params) &&
               sameMask(*k.mask, mask) && sameMask(*k.pixelMask, pixelMask);
    }
};

} // namespace

std::shared_ptr<const PreparedGeometry>
preparedGeometry(const GeometryKey& key, const std::function<PreparedGeometry()>& make) {
    static std::mutex guard;
    static std::map<std::pair<std::string, Method>, Kept> kept;
    const std::pair<std::string, Method> slot{key.device, key.method};
    {
        const std::lock_guard<std::mutex> lock(guard);
        const auto it = kept.find(slot);
        if (it != kept.end() && it->second.matches(key)) return it->second.prepared;
    }
    auto prepared = std::make_shared<const PreparedGeometry>(make()); // outside the lock
    Kept entry{key, *key.mask, *key.pixelMask, prepared};
    entry.key.mask = entry.key.pixelMask = nullptr; // its own copies are compared
    const std::lock_guard<std::mutex> lock(guard);
    kept[slot] = std::move(entry);
    return prepared;
}

} // namespace clscope::azint
