#include "core/xpcs/intensity.hpp"

#include "core/errors.hpp"
#include "core/xpcs/xpcs.hpp"

#include <cmath>
#include <memory>
#include <string>

namespace clscope::xpcs {

namespace {

void checkShape(const FrameBlocks& frames, const LabelMask& mask) {
    if (frames.height() != mask.height || frames.width() != mask.width)
        throw InputError("xpcs intensity: frames of " + std::to_string(frames.height()) + "x" +
                         std::to_string(frames.width()) + " pixels, labels of " +
                         std::to_string(mask.height) + "x" + std::to_string(mask.width) +
                         "; expected the same image size");
}

// Adds the per-bin sums of `count` frames (starting at frame `first`) into out.mean.
void addBlock(const Array& block, std::size_t first, const Bins& bins, BinIntensity& out) {
    const std::size_t pixels = block.height() * block.width();
    visitArray(block, [&](auto values) {
        for (std::size_t f = 0; f < block.frameCount(); ++f) {
            const auto* frame = values.data() + f * pixels;
            for (std::size_t b = 0; b < bins.count(); ++b) {
                double sum = 0.0;
                for (auto i = bins.offsets[b]; i < bins.offsets[b + 1]; ++i)
                    sum += static_cast<double>(frame[bins.pixelIndex[i]]);
                out.mean[b * out.frames + first + f] = sum;
            }
        }
    });
}

} // namespace

BinIntensity binIntensity(const FrameBlocks& frames, const LabelMask& mask) {
    checkShape(frames, mask);
    const Bins bins = makeBins(mask);
    BinIntensity out{bins.labels, bins.pixelCounts, frames.frameCount(), {}};
    out.mean.assign(out.binCount() * out.frames, 0.0);
    const std::size_t step =
        blockFrames(frames.height() * frames.width() * dtypeSize(frames.dtype()));
    for (std::size_t first = 0; first < out.frames; first += step)
        addBlock(frames.read(first, std::min(step, out.frames - first)), first, bins, out);
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
