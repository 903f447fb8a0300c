#include "core/azint/azint.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace clscope::azint {

namespace {

void checkRange(const std::optional<Range>& r, const char* name) {
    if (!r) return;
    if (!std::isfinite(r->first) || !std::isfinite(r->second) || !(r->first != r->second))
        throw UsageError(std::string("azint: ") + name + " must be two different finite numbers");
}

void checkMask(const PixelMask& m, const Array& frames, const char* name) {
    if (m.bad.empty()) return;
    if (m.height != frames.height() || m.width != frames.width() ||
        m.bad.size() != m.height * m.width)
        throw InputError(std::string("azint: the ") + name + " is " + std::to_string(m.height) +
                         "x" + std::to_string(m.width) + ", the frames " +
                         std::to_string(frames.height()) + "x" + std::to_string(frames.width()));
}

} // namespace

void checkParams(const Params& p) {
    if (p.bins < 1) throw UsageError("azint: bins must be >= 1");
    if (p.azimuthBins < 0) throw UsageError("azint: azimuthal bins must be >= 0");
    if (std::int64_t(p.bins) * std::max(p.azimuthBins, 1) > INT32_MAX)
        throw UsageError("azint: radial x azimuthal bins must be < 2^31");
    checkRange(p.radialRange, "the radial range");
    checkRange(p.azimuthRange, "the azimuth range");
    if (p.polarization && !std::isfinite(*p.polarization))
        throw UsageError("azint: the polarisation factor must be finite");
}

void checkInput(const Input& in) {
    if (in.frames.rank() != 2 && in.frames.rank() != 3)
        throw InputError("azint: frames must be (T,H,W) or (H,W), found " +
                         shapeString(in.frames.shape()));
    checkMask(in.mask, in.frames, "mask");
    checkMask(in.pixelMask, in.frames, "pixel mask");
}

} // namespace clscope::azint
