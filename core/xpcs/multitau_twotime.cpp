// Two-time maps for long series (--twotime-bin F): the stack binned by F frames, read block
// by block, then the dense two-time map of the binned stack (the CPU reference, DESIGN.md §5).
// Frames stored sparsely (a CSR file, an event list, a Rigaku file) are never densified: each
// labelled pixel's binned values are gathered from the entries, and each bin's frame sums and
// Gram matrix made of them exactly (issue 55), the same maps bit for bit.
#include "core/errors.hpp"
#include "core/xpcs/multitau.hpp"
#include "core/xpcs/sparse_blocks.hpp"

#include <algorithm>
#include <optional>

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

// One labelled pixel's non-zero binned values, in binned-frame order.
struct PixelSeries {
    std::vector<std::uint32_t> frame, value;
};

// The binned values of every pixel of `only`'s labels from the stored entries of frames
// [0, count * bin); nullopt where the frames are not stored sparsely.
std::optional<std::vector<PixelSeries>> sparseSeries(const FrameBlocks& frames,
                                                     const std::vector<std::int32_t>& position,
                                                     std::size_t positions, std::size_t count,
                                                     std::size_t bin) {
    std::vector<PixelSeries> series(positions);
    SparseBlock block;
    const std::size_t step = std::max<std::size_t>(bin, 65536 / bin * bin);
    for (std::size_t first = 0; first < count * bin; first += step) {
        if (!frames.readSparseInto(first, std::min(step, count * bin - first), block))
            return std::nullopt;
        for (std::size_t f = 0; f < block.frames(); ++f) {
            const auto binned = static_cast<std::uint32_t>((first + f) / bin);
            for (auto e = block.ptr[f]; e < block.ptr[f + 1]; ++e) {
                const std::int32_t at = position[std::size_t(block.pixel[std::size_t(e)])];
                const std::uint32_t c = block.count[std::size_t(e)];
                if (at < 0 || c == 0) continue;
                PixelSeries& s = series[std::size_t(at)];
                if (s.frame.empty() || s.frame.back() != binned)
                    s.frame.push_back(binned), s.value.push_back(0);
                s.value.back() += c; // within uint32: binnedTwotime's bound
            }
        }
    }
    return series;
}

// The two-time maps of `bins` (of `only`) from their pixels' binned values (series[i]: the pixel
// bins.pixelIndex[i]): exact frame sums and Gram matrices (t1 >= t2), then the dense reference's
// statistics of them.
std::map<std::int32_t, std::vector<float>> twotimeOfSeries(const std::vector<PixelSeries>& series,
                                                           const Bins& bins, std::size_t count,
                                                           const Params& params) {
    Result result = makeLagResult(bins, count, params);
    for (std::size_t b = 0; b < bins.count(); ++b) {
        std::vector<Int128> sums(count, 0), gram(count * count, 0);
        for (auto i = bins.offsets[b]; i < bins.offsets[b + 1]; ++i) {
            const PixelSeries& s = series[std::size_t(i)];
            for (std::size_t j = 0; j < s.frame.size(); ++j) {
                sums[s.frame[j]] += s.value[j];
                for (std::size_t k = 0; k <= j; ++k)
                    gram[std::size_t(s.frame[j]) * count + s.frame[k]] +=
                        Int128(std::uint64_t(s.value[j]) * s.value[k]);
            }
        }
        finishBinExact(bins, b, sums, gram, result);
    }
    return std::move(result.twotime);
}

// The binned stack (count, H, W) of the pixels' binned values: the dense reference's input.
Array binnedStackOf(const std::vector<PixelSeries>& series, const Bins& bins, const LabelMask& only,
                    std::size_t count) {
    const std::size_t size = only.labels.size();
    std::vector<std::uint32_t> binned(count * size, 0);
    for (std::size_t i = 0; i < series.size(); ++i) {
        const auto pixel = std::size_t(bins.pixelIndex[i]);
        for (std::size_t j = 0; j < series[i].frame.size(); ++j)
            binned[series[i].frame[j] * size + pixel] = series[i].value[j];
    }
    return makeArray<std::uint32_t>({count, only.height, only.width}, binned);
}

// The two-time maps from the stored entries; nullopt where the frames are not stored sparsely.
std::optional<std::map<std::int32_t, std::vector<float>>> sparseTwotime(const FrameBlocks& frames,
                                                                        const LabelMask& only,
                                                                        std::size_t bin,
                                                                        const Params& params) {
    const std::size_t count = frames.frameCount() / bin;
    const Bins bins = makeBins(only);
    const std::vector<std::int32_t> position = positionsOf(bins, only.labels.size());
    const std::size_t positions = bins.pixelIndex.size();
    const auto series = sparseSeries(frames, position, positions, count, bin);
    if (!series) return std::nullopt;
    // Pixels holding most binned frames (dense once binned) cost more pair by pair than the
    // dense Gram product: their binned stack goes to the reference instead.
    double pairs = 0;
    for (const PixelSeries& p : *series)
        pairs += 0.5 * double(p.frame.size()) * double(p.frame.size() + 1);
    if (pairs > 0.125 * double(count) * double(count + 1) * double(positions))
        return correlateCpu(binnedStackOf(*series, bins, only, count), only, params).twotime;
    return twotimeOfSeries(*series, bins, count, params);
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
    Params dense;
    dense.twotimeLabels = params.twotimeLabels;
    dense.threads = params.threads;
    if (integer)
        if (auto maps = sparseTwotime(frames, only, bin, dense)) return std::move(*maps);
    const Array binned =
        integer ? binStack<std::uint32_t>(frames, only, bin) : binStack<float>(frames, only, bin);
    return correlateCpu(binned, only, dense).twotime;
}

} // namespace clscope::xpcs
