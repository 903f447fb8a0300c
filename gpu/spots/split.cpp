// spots over several devices: contiguous frame ranges, joined frame by frame. 2D spots never
// cross frames, so the joined result is the one-device result; --3d runs do not split. Stacks
// with fewer frames than parts split into bands of rows instead (bands.cpp).
#include "core/errors.hpp"
#include "core/range_pool.hpp"
#include "gpu/facets/split_facet.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/bands.hpp"
#include "gpu/spots/facets.hpp"
#include "gpu/spots/run_types.hpp"

namespace clscope::spots {

namespace {

template <class T> void append(std::vector<T>& to, const std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

// Room for every part's spots, signal mask, pixel lists and counts at once (a 16M stack's
// parts hold hundreds of thousands of spots: grown piece by piece they were copied again and
// again, 22.6 ms of a two-GPU join on H100s).
void reserveFor(Result& r, const std::vector<std::shared_ptr<SpotsResult>>& parts) {
    std::size_t spots = 0, signal = 0, frames = 0;
    for (const auto& part : parts) {
        spots += part->result.spots.size(), signal += part->result.signal.size();
        frames += part->result.pixels.size();
    }
    r.spots.reserve(spots), r.signal.reserve(signal), r.pixels.reserve(frames);
    r.strongPerFrame.reserve(frames);
}

// Each part's spots moved to the frames of the whole stack, in place (the parts go once
// joined), the parts side by side: 180,000 spots of 112 bytes for the 16M stream case.
void shiftSpots(const std::vector<std::shared_ptr<SpotsResult>>& parts, std::size_t plane) {
    std::vector<std::size_t> firstFrame(parts.size(), 0);
    for (std::size_t i = 1; i < parts.size(); ++i)
        firstFrame[i] = firstFrame[i - 1] + parts[i - 1]->result.strongPerFrame.size();
    parallelRanges(parts.size(), parts.size(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const int offset = static_cast<int>(firstFrame[i]);
            for (Spot& s : parts[i]->result.spots) {
                s.frame += offset, s.frameEnd += offset, s.peakFrame += offset, s.z += offset;
                s.firstPixel += static_cast<std::int64_t>(firstFrame[i] * plane);
            }
        }
    });
}

void appendDebug(DebugImages& to, const DebugImages& from) {
    append(to.mean, from.mean), append(to.variance, from.variance);
    append(to.dispersion, from.dispersion), append(to.sigmaB, from.sigmaB);
    append(to.sigmaS, from.sigmaS), append(to.global, from.global), append(to.final, from.final);
}

// Contiguous frame ranges (2D spots only; global_threshold = auto is estimated on the whole
// input first), joined identical to one run.
class FrameRanges : public TypedSplit<Algorithm> {
  protected:
    // Frame ranges (or bands of rows) share out the frames and the kernels: `local` ran 100
    // 16M frames (5.1e10 of runWork's operations) in 13.6 ms on an H100, 3.7e12 a second.
    SplitWork splitWorkWith(const Run& run) const override {
        if (run.params().threeD) return {};
        const SpotsInput& in = run.input();
        return {double(in.data.frames.byteSize()), runWork(in).operations / 3.7e12 * 1e3};
    }
    std::vector<Algorithm::Part> splitWith(const Run& run, std::size_t parts) const override;
    std::shared_ptr<AlgorithmResult>
    joinWith(const std::vector<std::shared_ptr<SpotsResult>>& parts) const override;
};

std::vector<Algorithm::Part> FrameRanges::splitWith(const Run& run, std::size_t parts) const {
    const SpotsInput& in = run.input();
    const Params& p = run.params();
    if (p.threeD) return {}; // spots may cross any frame boundary
    const Array& frames = in.data.frames;
    const std::size_t count = frames.rank() == 3 ? frames.frameCount() : 1;
    const std::size_t n = std::max<std::size_t>(1, std::min(parts, count));
    ParamSet partParams = run.values();
    if (p.globalAuto) partParams.set("global_threshold", autoGlobalThreshold(in.data));
    // Bands for integer data only: sat's float tables round differently from another first row.
    if (count < parts && frames.dtype() != DType::Float32)
        return splitBands(in, partParams, parts, bandHalo(p));
    // One part: the input itself, not owned (runOnDevices keeps it alive while parts run).
    if (n == 1) return {{std::shared_ptr<const AlgorithmInput>(&in, [](auto*) {}), partParams}};
    std::vector<Algorithm::Part> out;
    for (std::size_t i = 0, first = 0; i < n; ++i) {
        const std::size_t size = count / n + (i < count % n ? 1 : 0);
        auto part = std::make_shared<SpotsInput>();
        // A view: the parts upload from the stack's memory (pinned where the run put it there)
        // instead of a copy each (79 ms of staging copies a device for 100 16M frames on two
        // H100s); runOnDevices keeps the input alive while its parts run.
        part->data.frames = frames.frameView(first, size);
        part->data.mask = in.data.mask;
        part->signalMask = in.signalMask; // a stream's parts keep lists only, as the whole run
        part->provenance = in.provenance;
        out.push_back({part, partParams});
        first += size;
    }
    return out;
}

std::shared_ptr<AlgorithmResult>
FrameRanges::joinWith(const std::vector<std::shared_ptr<SpotsResult>>& parts) const {
    if (parts.empty()) throw UsageError("spots: nothing to join");
    auto out = std::make_shared<SpotsResult>();
    Result& r = out->result;
    const SpotsResult& first = *parts.front();
    if (parts.size() == 1) return std::make_shared<SpotsResult>(first);
    if (first.band) return joinBands(parts);
    r.thresholdUsed = first.result.thresholdUsed;
    const Shape& shape = first.result.shape;
    const std::size_t h = shape[shape.size() - 2], w = shape.back();
    std::size_t frames = 0;
    if (first.debug) out->debug.emplace();
    reserveFor(r, parts);
    shiftSpots(parts, h * w);
    for (const auto& at : parts) {
        SpotsResult& part = *at; // the parts go once joined: their pixel lists are moved
        append(r.spots, part.result.spots);
        append(r.signal, part.result.signal);
        for (auto& list : part.result.pixels)
            r.pixels.push_back(std::move(list));
        append(r.strongPerFrame, part.result.strongPerFrame);
        if (out->debug && part.debug) appendDebug(*out->debug, *part.debug);
        if (out->note.empty()) out->note = part.note;
        frames += part.result.strongPerFrame.size();
    }
    r.shape = {frames, h, w};
    return out;
}

} // namespace

std::shared_ptr<const Facet> splitFacet() {
    return std::make_shared<FrameRanges>();
}

} // namespace clscope::spots
