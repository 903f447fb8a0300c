// xpcs within a memory budget: passes over groups of bins (ascending labels) whose frames fit.
// Each pass reads the stack a slab of frames at a time (each HDF5 chunk decompressed once per
// pass) and keeps only its bins' pixels, as a (T, 1, P) stack with (1, P) labels; sums over a
// bin do not depend on where its pixels sit, so every bin's g2 is the in-memory run's.
#include "gpu/scale/passes.hpp"
#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/input/frame_reading.hpp"
#include "core/limits.hpp"
#include "gpu/facets/passes_facet.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/facets.hpp"

#include <algorithm>
#include <cstring>

namespace clscope {

namespace {

class XpcsPlan : public PassPlan {
  public:
    std::shared_ptr<const FrameStream> stream;
    std::shared_ptr<const xpcs::XpcsInput> binning; // labels with the pixel mask applied
    std::vector<std::vector<std::int32_t>> groups;
    std::size_t slabFrames = 1;
    ParamSet params;

    std::size_t count() const override { return groups.size(); }

    Algorithm::Part read(std::size_t pass) const override {
        const std::vector<std::int32_t>& group = groups[pass];
        const auto& labels = binning->labels.labels;
        std::vector<std::size_t> pixels;
        LabelMask partLabels;
        for (std::size_t p = 0; p < labels.size(); ++p)
            if (labels[p] > 0 && std::binary_search(group.begin(), group.end(), labels[p]))
                pixels.push_back(p), partLabels.labels.push_back(labels[p]);
        partLabels.height = 1, partLabels.width = pixels.size();
        const std::size_t frames = stream->frameCount(), size = dtypeSize(stream->dtype());
        Array compact(stream->dtype(), {frames, 1, pixels.size()});
        for (std::size_t first = 0; first < frames; first += slabFrames) {
            const std::size_t n = std::min(slabFrames, frames - first);
            const Array slab = stream->read(first, n);
            for (std::size_t t = 0; t < n; ++t) {
                const std::byte* from = slab.bytes() + t * stream->frameBytes();
                std::byte* to = compact.bytes() + (first + t) * pixels.size() * size;
                for (std::size_t j = 0; j < pixels.size(); ++j)
                    std::memcpy(to + j * size, from + pixels[j] * size, size);
            }
        }
        return {xpcs::withFrames(*binning, std::move(compact), std::move(partLabels)),
                xpcs::paramsForBins(params, group)};
    }
};

// Consecutive bins packed while their frames fit `room` bytes.
std::vector<std::vector<std::int32_t>> packBins(const xpcs::Bins& bins, std::uint64_t bytesPerPixel,
                                                std::uint64_t room, std::uint64_t budget) {
    std::vector<std::vector<std::int32_t>> groups;
    std::uint64_t used = room;
    for (std::size_t b = 0; b < bins.count(); ++b) {
        const std::uint64_t need =
            budgetBytes(static_cast<std::uint64_t>(bins.pixelCounts[b]), bytesPerPixel, "xpcs bin");
        if (need > room) // beside the slab that reads the frames (budget - room)
            overBudget("the frames of bin " + std::to_string(bins.labels[b]) + " (" +
                           std::to_string(bins.pixelCounts[b]) + " pixels, " + byteText(need) +
                           ") and a read slab of " + byteText(budget - room),
                       need + (budget - room), budget);
        if (used + need > room) groups.emplace_back(), used = 0;
        groups.back().push_back(bins.labels[b]), used += need;
    }
    return groups;
}

} // namespace

} // namespace clscope

namespace clscope::xpcs {

namespace {

// Groups of bins whose frames fit the budget, each pass a slab of frames at a time.
std::unique_ptr<PassPlan> planBinPasses(const InputSources& sources, const Algorithm::Run& run,
                                        std::uint64_t budget) {
    refuseOnStream(sources, run.values());
    if (run.params().multitau) return nullptr; // streamed in bounded memory anyway
    const InputRole frames = run.algorithm().role("frames");
    const DataLocation framesAt = sources.locate(frames);
    std::shared_ptr<const FrameStream> stream = openFrames(sources, frames);
    if (!stream->isStack())
        throw InputError(framesAt.file + ":" + framesAt.path +
                         ": xpcs needs a (T,H,W) frame stack");
    const std::uint64_t frameBytes = stream->frameBytes();
    if (budgetBytes(stream->frameCount(), frameBytes, "xpcs frames") <= budget) return nullptr;
    auto plan = std::make_unique<XpcsPlan>();
    plan->binning = readBinning(sources, stream->height(), stream->width());
    plan->slabFrames = stream->framesWithin(budget / 4);
    const std::uint64_t slab = plan->slabFrames * frameBytes;
    if (slab > budget) overBudget("one frame", slab, budget);
    const std::uint64_t bytesPerPixel = stream->frameCount() * dtypeSize(stream->dtype());
    plan->groups = packBins(makeBins(plan->binning->labels), bytesPerPixel, budget - slab, budget);
    if (plan->groups.empty()) return nullptr; // no bins: nothing to stream
    plan->provenance = plan->binning->provenance;
    plan->params = run.values();
    plan->stream = std::move(stream);
    return plan;
}

} // namespace

std::shared_ptr<const Facet> passesFacet() {
    return std::make_shared<PassesOf<Algorithm>>(&planBinPasses);
}

} // namespace clscope::xpcs
