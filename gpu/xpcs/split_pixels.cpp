// Multi-tau over several devices, split by pixels: each device receives a band of whole rows of
// every frame (equal row counts over the labelled rows: equal bytes on each device's link), runs
// the rings over the bins' pixels in its band, and its per-row integer sums are added to the
// other parts' before one fold (multitau_merge.hpp): the one device's result, bit for bit.
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/multitau_merge.hpp"

#include <algorithm>

namespace clscope::xpcs {

namespace {

// Rows [first, last) holding every labelled pixel ({0, 0}: none).
std::pair<std::size_t, std::size_t> labelledRows(const LabelMask& mask) {
    std::size_t first = mask.height, last = 0;
    for (std::size_t y = 0; y < mask.height; ++y)
        for (std::size_t x = 0; x < mask.width; ++x)
            if (mask.labels[y * mask.width + x] > 0) {
                first = std::min(first, y), last = y + 1;
                break;
            }
    return first < last ? std::pair{first, last} : std::pair<std::size_t, std::size_t>{0, 0};
}

// `parts` bands of about equal row counts over rows [first, last), those with a labelled
// pixel kept.
std::vector<std::pair<std::size_t, std::size_t>>
bands(const Bins& bins, std::size_t width, std::size_t first, std::size_t last, std::size_t parts) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    parts = std::min(parts, last - first);
    for (std::size_t i = 0; i < parts; ++i) {
        const std::size_t r0 = first + (last - first) * i / parts;
        const std::size_t r1 = first + (last - first) * (i + 1) / parts;
        const auto inBand = [&](std::int32_t p) {
            return std::size_t(p) >= r0 * width && std::size_t(p) < r1 * width;
        };
        if (std::any_of(bins.pixelIndex.begin(), bins.pixelIndex.end(), inBand))
            out.push_back({r0, r1});
    }
    return out;
}

} // namespace

std::vector<Algorithm::Part> splitByPixels(const XpcsInput& in, const ParamSet& values,
                                           int channels, std::size_t parts) {
    const auto input = std::make_shared<XpcsInput>(in); // frames shared, not copied
    const auto [first, last] = labelledRows(in.labels);
    // Frames read in order from a file or a stream cannot be read by several devices at once:
    // whole on the first.
    if (!in.frames || parts < 2 || first == last) return {{input, values}};
    Bins bins = makeBins(in.labels);
    const auto cut = bands(bins, in.labels.width, first, last, parts);
    if (cut.size() < 2) return {{input, values}};
    auto merge = std::make_shared<MultitauMerge>(std::move(bins), channels, cut.size());
    std::vector<Algorithm::Part> out;
    for (std::size_t i = 0; i < cut.size(); ++i) {
        auto part = std::make_shared<XpcsInput>(in); // frames shared, not copied
        part->band = std::make_shared<const MultitauBand>(
            MultitauBand{cut[i].first, cut[i].second, i, merge});
        out.push_back({part, values, [merge](std::exception_ptr e) { merge->fail(e); }});
    }
    return out;
}

SplitWork splitByPixelsWork(const XpcsInput& in) {
    if (!in.frames) return {}; // read in order: not split
    const auto blocks = in.blocks ? in.blocks : blocksInMemory(in.frames);
    return {double(blocks->frameCount() * blocks->height() * blocks->width() *
                   dtypeSize(blocks->dtype())),
            0};
}

} // namespace clscope::xpcs
