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

// The same from a block's stored entries, its frame 0 the stack's `first` (a pixel listed twice
// adds, as densified). Integer sums, exact below 2^53 in any order: the densified block's.
void addStoredEntries(const SparseBlock& block, std::size_t first,
                      const std::vector<std::int32_t>& binOf, FrameSums& out) {
    for (std::size_t f = 0; f < block.frames(); ++f)
        for (auto i = std::size_t(block.ptr[f]); i < std::size_t(block.ptr[f + 1]); ++i) {
            const auto pixel = std::size_t(block.pixel[i]);
            const double count = block.count[i];
            if (binOf[pixel] >= 0)
                out.sums[std::size_t(binOf[pixel]) * out.frames + first + f] += count;
            if (!out.image.empty()) out.image[pixel] += count;
        }
}

// Each pixel's bin, -1 where unlabelled.
std::vector<std::int32_t> binOfPixels(const Bins& bins, std::size_t pixels) {
    std::vector<std::int32_t> out(pixels, -1);
    for (std::size_t b = 0; b < bins.count(); ++b)
        for (auto i = bins.offsets[b]; i < bins.offsets[b + 1]; ++i)
            out[std::size_t(bins.pixelIndex[std::size_t(i)])] = static_cast<std::int32_t>(b);
    return out;
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
    // Frames stored as entries are summed from them, never densified.
    const std::vector<std::int32_t> binOf =
        out.frames > 0 && frames.readSparse(0, 1)
            ? binOfPixels(bins, frames.height() * frames.width())
            : std::vector<std::int32_t>{};
    SparseBlock entries;
    for (std::size_t first = 0; first < out.frames; first += step) {
        const std::size_t count = std::min(step, out.frames - first);
        if (!binOf.empty() && frames.readSparseInto(first, count, entries))
            addStoredEntries(entries, first, binOf, out);
        else
            addBlock(frames.read(first, count), first, bins, out);
    }
    return out;
}

} // namespace clscope::xpcs
