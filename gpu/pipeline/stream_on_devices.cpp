// One streaming run over several devices (stream_pipeline.hpp: runStreamOnDevices): a lane per
// device — its session, stage and batch writer — takes the next batch of frames when it is free,
// decodes it on its device and runs its stage; the lanes' stages are joined at the end.
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "gpu/pipeline/batch_writer.hpp"
#include "gpu/pipeline/stream_pipeline.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/session.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

namespace clscope::pipeline {

namespace {

using Clock = std::chrono::steady_clock;

// One device's part: what it ran, and its session's timings.
struct Lane {
    DeviceInfo device;
    FrameStage* stage = nullptr;
    std::unique_ptr<ClSession> session;
    std::unique_ptr<BatchWriter> writer;
    std::vector<FrameRange> ranges; // the batches it ran, in order
    std::size_t frames = 0;
    double waitMs = 0;
};

// The feed's frames handed out a batch at a time, in order, to the lane that asks (the feed is
// read from one thread at a time); nothing more once stopped (a lane failed).
class Dispatch {
  public:
    Dispatch(FrameFeed& feed, std::size_t batch) : feed_(feed), batch_(batch) {}
    // The next batch (empty at the end, or once stopped) and its first frame's index.
    std::pair<Taken, std::size_t> next(const DeviceInfo& device) {
        std::lock_guard lock(mutex_);
        if (stopped_) return {Taken{}, taken_};
        Taken t = takeBatch(feed_, batch_, device);
        const std::size_t first = taken_;
        taken_ += t.count();
        return {std::move(t), first};
    }
    void stop() {
        std::lock_guard lock(mutex_);
        stopped_ = true;
    }
    // `n` more frames done, said to `progress` from one lane at a time (its callback need not
    // be thread-safe).
    void report(const Progress& progress, std::size_t n, std::size_t total) {
        std::lock_guard lock(reportMutex_);
        done_ += n;
        progress.report(double(done_) / double(std::max<std::size_t>(total, 1)));
    }

  private:
    FrameFeed& feed_;
    std::size_t batch_;
    std::mutex mutex_, reportMutex_;
    std::size_t taken_ = 0, done_ = 0;
    bool stopped_ = false;
};

// A decoder's InputError about batch frame K, named as the feed's image.
template <class F> void namingImages(const FrameFeed& feed, std::size_t first, F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        throw InputError(imageError(feed, first, e.what()));
    }
}

// The lane's batches until the feed ends or the dispatch stops.
void runLane(Lane& lane, Dispatch& dispatch, const FrameFeed& feed, std::size_t total,
             const Progress& progress) {
    for (;;) {
        progress.checkCancel();
        auto t = Clock::now();
        // Not a structured binding: clang 14 does not let the lambdas below capture one.
        std::pair<Taken, std::size_t> next = dispatch.next(lane.device);
        Taken& taken = next.first;
        const std::size_t first = next.second;
        lane.waitMs += msSince(t);
        const std::size_t n = taken.count();
        if (n == 0) return;
        namingImages(feed, first, [&] { taken.prepared = lane.writer->prepare(taken.frames); });
        writeTaken(*lane.writer, taken, lane.stage->frameBuffer(), feed, first);
        lane.stage->process(first, n);
        if (taken.prepared) namingImages(feed, first, [&] { lane.writer->check(*taken.prepared); });
        lane.writer->batchDone();
        lane.session->finish();
        lane.ranges.push_back({first, n}), lane.frames += n;
        dispatch.report(progress, n, total);
    }
}

// Every lane's batches on a thread of its own; the first failure (a device's error named with
// it) stops the others and is thrown.
void runLanes(std::vector<Lane>& lanes, Dispatch& dispatch, const FrameFeed& feed,
              std::size_t total, const Progress& progress) {
    std::vector<std::exception_ptr> errors(lanes.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t d = 0; d < lanes.size(); ++d)
            threads.emplace_back([&, d] {
                try {
                    try {
                        runLane(lanes[d], dispatch, feed, total, progress);
                    } catch (const cl::Error& e) {
                        rethrowDeviceError(e, "stream pipeline", lanes[d].device);
                    }
                } catch (...) {
                    errors[d] = std::current_exception();
                    dispatch.stop();
                }
            });
    }
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

// "2 devices (ocl:0: 20 frames decoded on the device in 4 batches; ocl:1: …)".
std::string laneText(const std::vector<Lane>& lanes) {
    std::string text;
    for (const Lane& lane : lanes)
        text += (text.empty() ? "" : "; ") + lane.device.spec + ": " +
                (lane.ranges.empty() ? std::string("no batch")
                                     : lane.writer->note() + " in " +
                                           std::to_string(lane.ranges.size()) + " batches");
    return std::to_string(lanes.size()) + " devices (" + text + ")";
}

} // namespace

std::size_t batchOnDevices(const std::vector<FrameStage*>& stages,
                           const std::vector<DeviceInfo>& devices, const FrameFormat& format,
                           std::size_t frames, std::uint64_t budgetBytes) {
    std::uint64_t batch = budgetBytes / std::max<std::size_t>(devices.size(), 1) /
                          std::max<std::size_t>(format.frameBytes(), 1);
    for (std::size_t d = 0; d < devices.size() && d < stages.size(); ++d)
        batch = std::min<std::uint64_t>(batch, stages[d]->batchFrames(devices[d], format));
    return std::clamp<std::uint64_t>(batch, 1, std::max<std::size_t>(frames, 1));
}

StreamRun runStreamOnDevices(const RunRequest& request, const InputSources& sources,
                             FrameFeed& feed, const std::vector<FrameStage*>& stages,
                             const std::vector<DeviceInfo>& devices, const Progress& progress,
                             std::uint64_t budgetBytes) {
    if (devices.size() != stages.size() || devices.empty())
        throw std::logic_error("runStreamOnDevices: a stage per device");
    if (devices.size() == 1) {
        RunRequest one = request;
        one.device = devices.front();
        return runStream(one, sources, feed, *stages.front(), progress, budgetBytes);
    }
    const auto start = Clock::now();
    const FrameFormat format = feed.format();
    const std::size_t total = feed.frameCount();
    const std::size_t batch = batchOnDevices(stages, devices, format, total, budgetBytes);
    std::vector<Lane> lanes(devices.size());
    for (std::size_t d = 0; d < devices.size(); ++d) {
        Lane& lane = lanes[d];
        lane.device = devices[d], lane.stage = stages[d];
        const auto began = Clock::now();
        try {
            lane.session = std::make_unique<ClSession>(lane.device);
            lane.stage->open(*lane.session, sources, format, batch, total);
            lane.writer = std::make_unique<BatchWriter>(*lane.session, format);
        } catch (const cl::Error& e) {
            rethrowDeviceError(e, "stream pipeline", lane.device);
        }
        lane.session->timings().addHostPhase(
            "pipeline set-up (host wall: session, programs, buffers)", msSince(began));
    }
    Dispatch dispatch(feed, batch);
    runLanes(lanes, dispatch, feed, total, progress);
    StreamRun out;
    std::size_t frames = 0;
    for (std::size_t d = 0; d < lanes.size(); ++d) {
        frames += lanes[d].frames, out.batches += lanes[d].ranges.size();
        lanes[d].session->timings().addHostPhase(
            "pipeline waiting for frames (host wall: its turn, receive, parse)", lanes[d].waitMs);
    }
    const auto joining = Clock::now();
    for (std::size_t d = 1; d < lanes.size(); ++d)
        lanes.front().stage->absorb(*lanes[d].stage, lanes[d].ranges);
    out.result = lanes.front().stage->finish(frames);
    lanes.front().session->timings().addHostPhase(
        "pipeline finish (host wall: the lanes joined, the last results drained)",
        msSince(joining));
    out.note =
        "stream pipeline on " + laneText(lanes) + "; batches of up to " + std::to_string(batch);
    if (const std::string chose = lanes.front().stage->note(); !chose.empty())
        out.note += "; " + chose;
    RunInfo& info = out.result->info;
    info.timings.clear(), info.kernelMs = 0;
    for (const Lane& lane : lanes) {
        const std::vector<TimingRecord> own = lane.session->timings().records();
        info.kernelMs = std::max(info.kernelMs, kernelTotalMs(own));
        for (TimingRecord t : own) {
            t.label = lane.device.spec + " " + t.label;
            info.timings.push_back(t);
        }
    }
    info.device.clear();
    for (const Lane& lane : lanes)
        info.device += (info.device.empty() ? "" : ",") + lane.device.spec;
    info.deviceName = std::to_string(lanes.size()) + " devices";
    info.wallMs = msSince(start);
    info.parametersJson = runProvenance(request, lanes.front().stage->provenance());
    progress.report(1.0);
    return out;
}

} // namespace clscope::pipeline
