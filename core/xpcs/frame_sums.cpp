#include "core/xpcs/frame_sums.hpp"

#include "core/errors.hpp"
#include "core/xpcs/xpcs.hpp"

#include <algorithm>
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

// The per-bin sums of the block's frames (starting at frame `first`), and its pixels into the
// sum image when there is one.
void addBlock(const Array& block, std::size_t first, const Bins& bins, FrameSums& out) {
    const std::size_t pixels = block.height() * block.width();
    visitArray(block, [&](auto values) {
        for (std::size_t f = 0; f < block.frameCount(); ++f) {
            const auto* frame = values.data() + f * pixels;
            for (std::size_t b = 0; b < bins.count(); ++b) {
                double sum = 0.0;
                for (auto i = bins.offsets[b]; i < bins.offsets[b + 1]; ++i)
                    sum += static_cast<double>(frame[bins.pixelIndex[i]]);
                out.sums[b * out.frames + first + f] = sum;
            }
            for (std::size_t p = 0; p < out.image.size(); ++p)
                out.image[p] += static_cast<double>(frame[p]);
        }
    });
}

} // namespace

std::vector<double> FrameSums::level(std::size_t bin, int k) const {
    const std::size_t width = std::size_t(1) << k, count = frames >> k;
    std::vector<double> out(count, 0.0);
    for (std::size_t t = 0; t < count; ++t)
        for (std::size_t f = 0; f < width; ++f)
            out[t] += at(bin, t * width + f);
    return out;
}

FrameSums frameSums(const FrameBlocks& frames, const LabelMask& mask, bool withImage) {
    checkShape(frames, mask);
    const Bins bins = makeBins(mask);
    FrameSums out;
    out.labels = bins.labels, out.pixels = bins.pixelCounts, out.frames = frames.frameCount();
    out.sums.assign(out.binCount() * out.frames, 0.0);
    if (withImage) out.image.assign(frames.height() * frames.width(), 0.0);
    const std::size_t step =
        blockFrames(frames.height() * frames.width() * dtypeSize(frames.dtype()));
    for (std::size_t first = 0; first < out.frames; first += step)
        addBlock(frames.read(first, std::min(step, out.frames - first)), first, bins, out);
    return out;
}

} // namespace clscope::xpcs
