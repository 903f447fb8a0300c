#include "gpu/pipeline/stream_pipeline.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "core/json_parse.hpp"
#include "gpu/pipeline/batch_loop.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/session.hpp"

#include <algorithm>
#include <chrono>
#include <future>

namespace clscope::pipeline {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

StreamRun runStream(const RunRequest& request, const InputSources& sources, FrameFeed& feed,
                    FrameStage& stage, const Progress& progress, std::uint64_t budgetBytes) {
    const auto start = Clock::now();
    const FrameFormat format = feed.format();
    const std::size_t total = feed.frameCount();
    ClSession session(request.device);
    const std::uint64_t withinBudget = budgetBytes / std::max<std::size_t>(format.frameBytes(), 1);
    const std::size_t batch = std::clamp<std::size_t>(
        std::min<std::uint64_t>(stage.batchFrames(request.device, format), withinBudget), 1,
        std::max<std::size_t>(total, 1));
    StreamRun out;
    BatchTimes times;
    try {
        stage.open(session, sources, format, batch, total);
        BatchWriter writer(session, format);
        session.timings().addHostPhase("pipeline set-up (host wall: session, programs, buffers)",
                                       msSince(start));
        // Batch k + 2 is received meanwhile (its own thread); batch k + 1's blocks are
        // planned and its bytes sent up while the device decodes batch k (runBatches).
        auto receive = [&feed, batch, &request] { return takeBatch(feed, batch, request.device); };
        std::future<Taken> receiving = std::async(std::launch::async, receive);
        std::size_t taken = 0;
        auto take = [&]() -> std::pair<Taken, std::size_t> {
            Taken next = receiving.get();
            if (next.count() > 0) receiving = std::async(std::launch::async, receive);
            const std::size_t first = taken;
            taken += next.count();
            return {std::move(next), first};
        };
        runBatches(take, writer, stage, session, feed, progress, times,
                   [&](std::size_t, std::size_t) {
                       progress.report(double(times.frames) / double(total));
                   });
        session.timings().addHostPhase(
            "pipeline next batch staged (host wall: blocks planned, bytes to pinned memory)",
            times.prepareMs);
        out.note = "stream pipeline on " + request.device.spec + " (" + request.device.name +
                   "): " + std::to_string(times.frames) + " frames in " +
                   std::to_string(times.batches) + " batches of up to " + std::to_string(batch) +
                   "; " + writer.note();
        if (const std::string chose = stage.note(); !chose.empty()) out.note += "; " + chose;
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "stream pipeline", request.device);
    }
    auto& timings = session.timings();
    timings.addHostPhase("pipeline waiting for frames (host wall: receive, parse; the next batch "
                         "is taken meanwhile)",
                         times.waitMs);
    timings.addHostPhase("pipeline frames onto the device (host wall: decode queued, or decoded on "
                         "the host and uploaded)",
                         times.writeMs);
    timings.addHostPhase("pipeline stage (host wall: kernels, results back)", times.processMs);
    const auto finishing = Clock::now();
    out.result = stage.finish(times.frames);
    timings.addHostPhase("pipeline finish (host wall: the last results drained)",
                         msSince(finishing));
    out.batches = times.batches;
    RunInfo& info = out.result->info;
    info.device = request.device.spec, info.deviceName = request.device.name;
    info.timings = timings.records();
    info.kernelMs = kernelTotalMs(info.timings);
    info.wallMs = msSince(start);
    info.parametersJson = runProvenance(request, stage.provenance());
    progress.report(1.0);
    return out;
}

} // namespace clscope::pipeline
