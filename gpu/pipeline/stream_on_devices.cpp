// One streaming run over several devices (stream_pipeline.hpp: runStreamOnDevices): a lane per
// device — its session, stage and batch writer — takes the next batch of frames when it is free,
// decodes it on its device and runs its stage; the lanes' stages are joined at the end.
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "gpu/pipeline/batch_loop.hpp"
#include "gpu/pipeline/stream_pipeline.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/session.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <future>
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
    BatchTimes times;
};

// The feed's frames handed out a batch at a time, in order, to the lane that asks (the feed is
// read from one thread at a time), the batch after it received meanwhile on a thread of its
// own; nothing more once stopped (a lane failed).
class Dispatch {
  public:
    Dispatch(FrameFeed& feed, std::size_t batch) : feed_(feed), batch_(batch) {}
    ~Dispatch() {
        if (ahead_.valid()) ahead_.wait();
    }
    // The next batch (empty at the end, or once stopped) and its first frame's index.
    std::pair<Taken, std::size_t> next(const DeviceInfo& device) {
        std::lock_guard lock(mutex_);
        if (stopped_) return {Taken{}, taken_};
        Taken t = ahead_.valid() ? ahead_.get() : takeBatch(feed_, batch_, device);
        // a stacked feed's batch lands in the pinned memory of the device that takes it
        if (t.count() > 0 && !feed_.stacked())
            ahead_ = std::async(std::launch::async,
                                [this, device] { return takeBatch(feed_, batch_, device); });
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
    std::future<Taken> ahead_;
    std::size_t taken_ = 0, done_ = 0;
    bool stopped_ = false;
};

// What a lane needs of the run to set itself up.
struct LaneSetup {
    const InputSources& sources;
    FrameFormat format;
    std::size_t batch, total;
    std::mutex& opening; // the stages open one at a time (they read the run's other inputs)
};

// The lane's session, stage and writer. Its session is made beside the other lanes'; its
// stage is opened once no other lane's is opening.
void openLane(Lane& lane, const LaneSetup& setup) {
    const auto began = Clock::now();
    lane.session = std::make_unique<ClSession>(lane.device);
    {
        std::lock_guard lock(setup.opening);
        lane.stage->open(*lane.session, setup.sources, setup.format, setup.batch, setup.total);
    }
    lane.writer = std::make_unique<BatchWriter>(*lane.session, setup.format);
    lane.session->timings().addHostPhase("pipeline set-up (host wall: session, programs, buffers)",
                                         msSince(began));
}

// Every lane set up and running its batches on a thread of its own, a lane starting as soon as
// it is set up; the first failure (a device's error named with it) stops the others and is
// thrown.
void runLanes(std::vector<Lane>& lanes, const LaneSetup& setup, Dispatch& dispatch,
              const FrameFeed& feed, const Progress& progress) {
    std::vector<std::exception_ptr> errors(lanes.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t d = 0; d < lanes.size(); ++d)
            threads.emplace_back([&, d] {
                Lane& lane = lanes[d];
                try {
                    try {
                        openLane(lane, setup);
                        runBatches([&] { return dispatch.next(lane.device); }, *lane.writer,
                                   *lane.stage, *lane.session, feed, progress, lane.times,
                                   [&](std::size_t first, std::size_t n) {
                                       lane.ranges.push_back({first, n});
                                       dispatch.report(progress, n, setup.total);
                                   });
                    } catch (const cl::Error& e) {
                        rethrowDeviceError(e, "stream pipeline", lane.device);
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

namespace {

// The run on every device given, a lane each (at least two).
StreamRun runOnLanes(const RunRequest& request, const InputSources& sources, FrameFeed& feed,
                     const std::vector<FrameStage*>& stages, const std::vector<DeviceInfo>& devices,
                     const Progress& progress, std::size_t batch) {
    const auto start = Clock::now();
    const FrameFormat format = feed.format();
    const std::size_t total = feed.frameCount();
    std::vector<Lane> lanes(devices.size());
    for (std::size_t d = 0; d < devices.size(); ++d)
        lanes[d].device = devices[d], lanes[d].stage = stages[d];
    std::mutex opening;
    const LaneSetup setup{sources, format, batch, total, opening};
    Dispatch dispatch(feed, batch);
    runLanes(lanes, setup, dispatch, feed, progress);
    StreamRun out;
    std::size_t frames = 0;
    for (Lane& lane : lanes) {
        frames += lane.times.frames, out.batches += lane.times.batches;
        TimingStats& timings = lane.session->timings();
        timings.addHostPhase("pipeline waiting for frames (host wall: its turn, receive, parse)",
                             lane.times.waitMs);
        timings.addHostPhase(
            "pipeline next batch staged (host wall: blocks planned, bytes to pinned memory)",
            lane.times.prepareMs);
        timings.addHostPhase("pipeline frames onto the device (host wall: decode queued, or "
                             "decoded on the host and uploaded)",
                             lane.times.writeMs);
        timings.addHostPhase("pipeline stage (host wall: kernels, results back)",
                             lane.times.processMs);
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

// A lane pays for its set-up (its session, programs, buffers and pinned staging: ~0.2 s on an
// H200, while the others run) only over enough batches: on two H200s two lanes beat one with
// 33-36 batches each (1,000 16M frames, 4,000 4M) and lost to it with 7 (200, 800); on four,
// with 8-17 each, they lost. --tune LANE_BATCHES=N sets it.
constexpr int kLaneBatches = 30;

// The devices that each get at least `least` batches of `batch` frames of `total` (every
// device where the series' length is not known), at least one.
std::size_t lanesFor(std::size_t total, std::size_t batch, std::size_t devices, int least) {
    if (total == 0) return devices;
    const std::size_t perLane = batch * std::size_t(std::max(least, 1));
    return std::clamp<std::size_t>(total / perLane, 1, devices);
}

} // namespace

StreamRun runStreamOnDevices(const RunRequest& request, const InputSources& sources,
                             FrameFeed& feed, const std::vector<FrameStage*>& stages,
                             const std::vector<DeviceInfo>& devices, const Progress& progress,
                             std::uint64_t budgetBytes) {
    if (devices.size() != stages.size() || devices.empty())
        throw std::logic_error("runStreamOnDevices: a stage per device");
    const std::size_t total = feed.frameCount();
    const std::size_t batch = batchOnDevices(stages, devices, feed.format(), total, budgetBytes);
    const auto tuned = request.tuning.find("LANE_BATCHES");
    const int least = tuned == request.tuning.end() ? kLaneBatches : tuned->second;
    const std::size_t lanes = lanesFor(total, batch, devices.size(), least);
    std::string fewer;
    if (lanes < devices.size())
        fewer = "; on " + std::to_string(lanes) + " of " + std::to_string(devices.size()) +
                " devices: " + std::to_string(total) + " frames give each fewer than " +
                std::to_string(least) + " batches of " + std::to_string(batch) +
                " (a device's set-up would cost more than it adds; --tune LANE_BATCHES=N)";
    StreamRun run;
    if (lanes == 1) {
        RunRequest one = request;
        one.device = devices.front();
        run = runStream(one, sources, feed, *stages.front(), progress, budgetBytes);
    } else {
        const std::vector<FrameStage*> used(stages.begin(), stages.begin() + std::ptrdiff_t(lanes));
        const std::vector<DeviceInfo> on(devices.begin(), devices.begin() + std::ptrdiff_t(lanes));
        run = runOnLanes(request, sources, feed, used, on, progress, batch);
    }
    run.note += fewer;
    return run;
}

} // namespace clscope::pipeline
