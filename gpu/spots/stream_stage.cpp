#include "gpu/spots/stream_stage.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/input/frame_reading.hpp"
#include "core/spots/parallel.hpp"
#include "core/spots/radix_sort.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/recipes.hpp"
#include "gpu/spots/spots_gpu.hpp"

#include <algorithm>
#include <chrono>

namespace clscope::spots {

namespace {

// The signal pixels of a batch (chunk-wide indices) and their values, by frame of the batch.
void addPixels(std::vector<std::vector<std::pair<std::uint32_t, double>>>& byFrame,
               std::size_t plane, const std::vector<cl_uint>& list, const Array& values) {
    for (std::size_t i = 0; i < list.size(); ++i)
        byFrame[list[i] / plane].emplace_back(std::uint32_t(list[i] % plane), values.valueAt(i));
}

} // namespace

SpotsStreamStage::SpotsStreamStage(RunRequest request, Params params, Window window)
    : request_(std::move(request)), params_(std::move(params)), window_(std::move(window)) {
    params_.tuning = request_.tuning;
    params_.signalMask = false; // the result keeps per-frame lists, as a budgeted run does
}

SpotsStreamStage::~SpotsStreamStage() {
    for (auto& task : grouping_) // they read pixels_
        if (task.second.valid()) task.second.wait();
}

bool SpotsStreamStage::accepts(const pipeline::FrameFormat& format) const {
    return !window_.extended() || int(format.height + format.width + 1) >= erosionDistance(params_);
}

std::size_t SpotsStreamStage::batchFrames(const DeviceInfo& device,
                                          const pipeline::FrameFormat& format) const {
    const std::size_t plane = format.height * format.width, element = dtypeSize(format.dtype);
    const std::uint64_t usable = device.globalMemBytes / 10 * 6;
    std::size_t batch = usable / device::bytesPerFrame(window_, plane, format.dtype);
    batch = std::min(batch, (std::size_t(UINT32_MAX) - 65536) / plane);
    batch = std::min(batch, device.maxAllocBytes /
                                (plane * device::largestElement(window_, format.dtype)));
    // Up to 512 MiB of frames, 64 at most: a decode launch keeps the device busy.
    batch = std::min({batch, (std::size_t(512) << 20) / (plane * element), std::size_t(64)});
    const int tuned = device::tuningValue(params_, "CHUNK_FRAMES", 0);
    if (tuned > 0) batch = std::min(batch, std::size_t(tuned));
    return std::max<std::size_t>(batch, 1);
}

void SpotsStreamStage::open(ClSession& session, const InputSources& sources,
                            const pipeline::FrameFormat& format, std::size_t batch,
                            std::size_t frames) {
    format_ = format;
    const std::size_t plane = format.height * format.width;
    auto masked = readMaskRole(sources, format.height, format.width);
    provenance_ = masked->provenance;
    Input first{{}, std::move(masked->data.mask)};
    // global_threshold = auto: DIALS' estimate from the first frame, as a run in passes takes it
    if (params_.globalAuto) {
        first.frames = openFrames(sources, Algorithm().role("frames"))->read(0, 1);
        threshold_ = autoGlobalThreshold(Input{first.frames, {}});
    } else {
        first.frames = Array(format.dtype, {0, format.height, format.width}); // checked alone
        threshold_ = params_.globalThreshold;
    }
    checkInput(first);
    const ProgramRecipe recipe = request_.programs.apply(spotsRecipe());
    run_ = std::make_unique<device::DeviceRun>(
        session, params_, recipe,
        programValues(recipe, format.dtype, params_, request_.programs, session.info()));
    device::DeviceRun& r = *run_;
    r.w = int(format.width), r.h = int(format.height), r.fp64 = session.info().fp64;
    if (!r.fp64) note_ = "no fp64 on the device: tests in float, approximate";
    r.params = device::paramBytes(params_, threshold_, r.fp64);
    device::allocate(r, window_, batch, plane, format.dtype, true);
    device::fitChunk(r, batch);
    const std::vector<std::uint8_t> none(first.mask.bad.empty() ? plane : 0, 0);
    r.bad = session.allocate(plane, "spots pixel mask");
    session.upload(r.bad, first.mask.bad.empty() ? none.data() : first.mask.bad.data(), plane,
                   "copy H->D pixel mask");
    gather_ = session.kernel(gatherRecipe(), gatherValues(format.dtype), "gather_elements");
    values_ = session.allocate(r.capacity * dtypeSize(format.dtype), "spots signal values");
    pixels_.assign(frames, {});
}

SpotsStreamStage::Pixels SpotsStreamStage::fetch(std::size_t count) {
    device::DeviceRun& r = *run_;
    const std::size_t plane = format_.height * format_.width, element = dtypeSize(format_.dtype);
    Pixels byFrame(count);
    cl_uint listed = 0;
    r.s.download(r.count, &listed, 4, "copy D->H signal count");
    if (listed > r.capacity) { // the list overflowed: the batch's mask and frames come back
        ++maskFetches_;
        std::vector<std::uint8_t> mask(count * plane);
        Array frames(format_.dtype, {count * plane});
        device::writeMask(r);
        r.s.download(r.signal, mask.data(), mask.size(), "copy D->H signal mask (list overflow)");
        r.s.download(r.frames, frames.bytes(), frames.byteSize(),
                     "copy D->H frames (list overflow)");
        for (std::size_t i = 0; i < mask.size(); ++i)
            if (mask[i])
                byFrame[i / plane].emplace_back(std::uint32_t(i % plane), frames.valueAt(i));
        return byFrame;
    }
    std::vector<cl_uint> list(listed);
    Array values(format_.dtype, {std::size_t(listed)});
    if (listed == 0) return byFrame;
    r.s.download(r.list, list.data(), listed * sizeof(cl_uint), "copy D->H signal list");
    gather_.setArg(0, r.frames), gather_.setArg(1, r.list), gather_.setArg(2, listed);
    gather_.setArg(3, values_);
    r.s.launch(gather_, "gather signal values",
               gatherRecipe().shape("gather_elements", gatherValues(format_.dtype),
                                    {std::size_t(listed)}));
    r.s.download(values_, values.bytes(), listed * element, "copy D->H signal values");
    addPixels(byFrame, plane, list, values);
    return byFrame;
}

void SpotsStreamStage::process(std::size_t first, std::size_t count) {
    device::DeviceRun& r = *run_;
    if (window_.extended())
        device::launchExtended(r, count);
    else
        device::launchDispersion(r, window_, count);
    Pixels byFrame = fetch(count);
    // The batches before go on grouping while this one's successor decodes: the host waits for
    // the oldest only when several are still at it (their frames' lists are held meanwhile).
    // Each task joins its spots after the task before it (in batch order), off this thread.
    waitGrouping(2);
    const auto launched = std::chrono::steady_clock::now();
    std::shared_future<double> before;
    if (!grouping_.empty()) before = grouping_.back().second;
    auto task = [this, first, launched, before, byFrame = std::move(byFrame)]() mutable {
        const std::vector<Spot> spots = groupBatch(first, byFrame);
        if (before.valid()) before.wait();
        spots_.add(first, spots);
        return msSince(launched);
    };
    grouping_.emplace_back(first, std::async(std::launch::async, std::move(task)).share());
}

std::vector<Spot> SpotsStreamStage::groupBatch(std::size_t first, Pixels& byFrame) {
    const std::size_t width = format_.width, plane = format_.height * format_.width;
    // 2-D: the batch's frames are independent; ranges of them on several threads, joined in
    // frame order, as findSpots does.
    std::vector<std::vector<Spot>> parts(byFrame.size());
    parallelRanges(byFrame.size(), 2, [&](std::size_t t0, std::size_t t1) {
        std::vector<std::vector<double>> values(t1 - t0);
        for (std::size_t t = t0; t < t1; ++t) {
            auto& frame = byFrame[t];
            radixSort(frame, [](const auto& pixel) { return pixel.first; });
            std::vector<std::uint32_t>& pixels = pixels_[first + t];
            pixels.reserve(frame.size()), values[t - t0].reserve(frame.size());
            for (const auto& [k, v] : frame)
                pixels.push_back(k), values[t - t0].push_back(v);
        }
        parts[t0] = findSpotsSparse(width, plane, pixels_, values, params_, first + t0, first + t1);
    });
    std::vector<Spot> spots;
    for (std::vector<Spot>& part : parts)
        spots.insert(spots.end(), part.begin(), part.end());
    return spots;
}

void SpotsStreamStage::waitGrouping(std::size_t pending) {
    while (grouping_.size() > pending) {
        const auto start = std::chrono::steady_clock::now();
        const double ms = grouping_.front().second.get(); // rethrows the task's error
        grouping_.pop_front();
        run_->s.timings().add("spots grouping waited for (host wall)", msSince(start));
        run_->s.timings().add("spots grouping (host threads: a batch from its launch to its "
                              "spots joined)",
                              ms);
    }
}

// The other device's frames' pixel lists, and its spots put among these in frame order (a
// frame's spots come from one device, in the order it found them).
void SpotsStreamStage::absorb(pipeline::FrameStage& other,
                              const std::vector<pipeline::FrameRange>& ranges) {
    auto& from = dynamic_cast<SpotsStreamStage&>(other);
    from.waitGrouping();
    waitGrouping();
    for (const pipeline::FrameRange& r : ranges)
        for (std::size_t f = r.first; f < r.first + r.count; ++f)
            pixels_.at(f) = std::move(from.pixels_.at(f));
    spots_.absorb(from.spots_);
}

std::shared_ptr<AlgorithmResult> SpotsStreamStage::finish(std::size_t frames) {
    waitGrouping();
    auto out = std::make_shared<SpotsResult>();
    Result& res = out->result;
    pixels_.resize(frames);
    res.shape = {frames, format_.height, format_.width};
    for (const auto& frame : pixels_)
        res.strongPerFrame.push_back(std::int64_t(frame.size()));
    res.pixels = std::move(pixels_);
    res.spots = spots_.take();
    res.thresholdUsed = threshold_;
    out->note = note_;
    out->info.algorithm = "spots", out->info.variant = window_.name;
    return out;
}

} // namespace clscope::spots
