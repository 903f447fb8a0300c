// xpcs::Algorithm::choiceFor: the variant a run's sparse input files call for when it names
// none (multi-tau: `sparse` below xpcs::sparseCrossover; dense lags: `sparse-pairs` below
// xpcs::denseLagsCrossover where it fits the device), from the occupancy their index gives.
#include "gpu/xpcs/algorithm.hpp"

#include "core/frame_stream.hpp"
#include "core/input/frame_reading.hpp"
#include "core/xpcs/multitau_sparse.hpp"
#include "gpu/xpcs/lags_sparse_device.hpp"

#include <algorithm>
#include <numeric>

namespace clscope::xpcs {

namespace {

// Dense lags on a sparse stack below xpcs::denseLagsCrossover: `sparse-pairs`, where every
// bin's Gram matrix fits the device and no 64-bit sum can overflow at the dtype's largest count
// (where it would refuse and a dense variant runs).
std::optional<ChosenVariant> denseLagsChoice(const InputSources& sources, const FrameStream& b,
                                             double occupancy, const DeviceInfo& device) {
    if (occupancy >= denseLagsCrossover) return std::nullopt;
    const Bins bins = makeBins(readBinning(sources, b.height(), b.width())->labels);
    if (bins.count() == 0 || !sparsePairsGramFits(device, bins, b.frameCount()))
        return std::nullopt;
    const std::int64_t most = *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
    if (!sums64Overflow(b.dtype(), dtypeLargest(b.dtype()), most, b.frameCount()).empty())
        return std::nullopt;
    return ChosenVariant{"sparse-pairs", "the frames' stored entries fill " +
                                             occupancyText(occupancy) +
                                             " of their pixels, below the dense-lag crossover " +
                                             occupancyText(denseLagsCrossover) +
                                             " where the dense variants win (--variant to choose)"};
}

} // namespace

std::optional<ChosenVariant> Algorithm::choiceFor(const InputSources& sources,
                                                  const ParamSet& params,
                                                  const DeviceInfo& device) const {
    if (sources.live) return std::nullopt;
    const std::shared_ptr<FrameStream> b = openFrames(sources, role("frames"));
    const std::optional<std::vector<std::uint64_t>> perFrame = b->entriesPerFrame();
    const double pixels = double(b->frameCount()) * double(b->height()) * double(b->width());
    if (!perFrame || !(pixels > 0)) return std::nullopt;
    const double occupancy =
        double(std::accumulate(perFrame->begin(), perFrame->end(), std::uint64_t(0))) / pixels;
    if (!params.boolean("multitau")) return denseLagsChoice(sources, *b, occupancy, device);
    if (occupancy >= sparseCrossover) return std::nullopt;
    return ChosenVariant{"sparse", "the frames' stored entries fill " + occupancyText(occupancy) +
                                       " of their pixels, below the crossover " +
                                       occupancyText(sparseCrossover) +
                                       " where the dense multitau wins (--variant to choose)"};
}

} // namespace clscope::xpcs
