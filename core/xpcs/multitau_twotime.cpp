// Two-time maps for long series (--twotime-bin F): the stack binned by F frames, read block
// by block, then the dense two-time map of the binned stack (the CPU reference, DESIGN.md §5).
#include "core/errors.hpp"
#include "core/xpcs/multitau.hpp"

#include <algorithm>

namespace clscope::xpcs {

namespace {

// The binned stack (T/F, H, W) as uint32 (integer data) or float32, labelled pixels only.
template <class Out>
Array binStack(const FrameBlocks& frames, const LabelMask& mask, std::size_t bin) {
    const std::size_t size = frames.height() * frames.width(), count = frames.frameCount() / bin;
    std::vector<Out> out(count * size, Out{});
    std::vector<std::size_t> labelled;
    for (std::size_t i = 0; i < size; ++i)
        if (mask.labels[i] > 0) labelled.push_back(i);
    const std::size_t step =
        std::max(bin, blockFrames(size * dtypeSize(frames.dtype())) / bin * bin);
    for (std::size_t first = 0; first < count * bin; first += step) {
        const Array block = frames.read(first, std::min(step, count * bin - first));
        visitArray(block, [&](auto values) {
            for (std::size_t f = 0; f < block.frameCount(); ++f) {
                Out* to = &out[((first + f) / bin) * size];
                for (std::size_t i : labelled)
                    to[i] += static_cast<Out>(values[f * size + i]);
            }
        });
    }
    return makeArray<Out>({count, frames.height(), frames.width()}, out);
}

} // namespace

std::size_t twotimeBinOf(std::size_t total, const Params& params) {
    return params.twotimeBin ? params.twotimeBin : (total + 1023) / 1024;
}

std::map<std::int32_t, std::vector<float>>
binnedTwotime(const FrameBlocks& frames, const LabelMask& mask, const Params& params) {
    if (params.twotimeLabels.empty()) return {};
    const std::size_t total = frames.frameCount();
    const std::size_t bin = twotimeBinOf(total, params);
    if (bin > total)
        throw UsageError("xpcs: --twotime-bin " + std::to_string(bin) + " is more than the " +
                         std::to_string(total) + " frames");
    const bool integer = frames.dtype() != DType::Float32 && frames.dtype() != DType::Float64;
    if (frames.dtype() == DType::Int32 ||
        (integer && double(dtypeLargest(frames.dtype())) * double(bin) >= 4294967296.0))
        throw UsageError("xpcs: --twotime-bin " + std::to_string(bin) + " of " +
                         dtypeName(frames.dtype()) +
                         " frames: the binned sums could leave uint32; use a smaller bin");
    LabelMask only = mask; // the two-time bins only
    for (std::int32_t& l : only.labels)
        if (std::find(params.twotimeLabels.begin(), params.twotimeLabels.end(), l) ==
            params.twotimeLabels.end())
            l = 0;
    const Array binned =
        integer ? binStack<std::uint32_t>(frames, only, bin) : binStack<float>(frames, only, bin);
    Params dense;
    dense.twotimeLabels = params.twotimeLabels;
    dense.threads = params.threads;
    return correlateCpu(binned, only, dense).twotime;
}

} // namespace clscope::xpcs
