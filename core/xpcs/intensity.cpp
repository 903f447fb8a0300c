#include "core/xpcs/intensity.hpp"

#include "core/errors.hpp"
#include "core/xpcs/frame_sums.hpp"

#include <cmath>
#include <memory>
#include <string>

namespace clscope::xpcs {

BinIntensity binIntensity(const FrameBlocks& frames, const LabelMask& mask) {
    const FrameSums sums = frameSums(frames, mask);
    BinIntensity out{sums.labels, sums.pixels, sums.frames, sums.sums};
    for (std::size_t b = 0; b < out.binCount(); ++b)
        for (std::size_t t = 0; t < out.frames; ++t)
            out.mean[b * out.frames + t] /= static_cast<double>(out.pixels[b]);
    return out;
}

BinIntensity binIntensity(const Array& frames, const LabelMask& mask) {
    if (frames.shape().size() != 3)
        throw InputError("xpcs intensity: frames must be a (T,H,W) stack");
    auto shared = std::shared_ptr<const Array>(&frames, [](const Array*) {});
    return binIntensity(*blocksInMemory(shared), mask);
}

std::vector<double> BinIntensity::timeMean() const {
    std::vector<double> out(binCount(), 0.0);
    for (std::size_t b = 0; b < binCount(); ++b) {
        for (std::size_t t = 0; t < frames; ++t)
            out[b] += at(b, t);
        out[b] /= static_cast<double>(std::max<std::size_t>(frames, 1));
    }
    return out;
}

std::vector<double> BinIntensity::timeSpread() const {
    const std::vector<double> mean = timeMean();
    std::vector<double> out(binCount(), 0.0);
    for (std::size_t b = 0; b < binCount() && frames > 1; ++b) {
        double sum = 0.0;
        for (std::size_t t = 0; t < frames; ++t)
            sum += (at(b, t) - mean[b]) * (at(b, t) - mean[b]);
        out[b] = std::sqrt(sum / static_cast<double>(frames - 1));
    }
    return out;
}

} // namespace clscope::xpcs
