#include "gpu/pipeline/stream_pipeline.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "core/json_parse.hpp"
#include "core/stream/compression.hpp"
#include "gpu/decode/decoder.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/runtime/staging.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <optional>
#include <thread>

namespace clscope::pipeline {

namespace {

using Clock = std::chrono::steady_clock;

// Whether frames are decoded on the device: CLSCOPE_STREAM_DECODE=host says no.
bool decodeOnDevice() {
    const char* env = std::getenv("CLSCOPE_STREAM_DECODE");
    return !(env && std::string(env) == "host");
}

// Frames of a batch in the order taken, decoded on the device or the host.
class BatchWriter {
  public:
    BatchWriter(ClSession& session, const FrameFormat& format)
        : session_(session), format_(format), decoder_(session), onDevice_(decodeOnDevice()) {
        if (!onDevice_) hostReason_ = "CLSCOPE_STREAM_DECODE=host";
    }

    // The batch's frames into `out`, frame i at i * frameBytes: runs of compressed frames
    // decoded on the device, the others uploaded as received; every frame through the host
    // decoder when the device does not decode.
    void write(std::vector<stream::ReceivedFrame>& frames, const cl::Buffer& out) {
        if (onDevice_) try {
                for (std::size_t i = 0; i < frames.size();)
                    i = frames[i].packed.empty() ? uploadAsReceived(frames, i, out)
                                                 : decodeRun(frames, i, out);
                return;
            } catch (const DeviceError& e) { // e.g. blocks beyond its local memory
                onDevice_ = false, hostReason_ = e.what();
                onDevice = doneBefore_, asReceived = receivedBefore_;
            }
        upload(frames, out);
    }

    // The host part of a batch's decode on the device, when every frame of it came compressed
    // and the device decodes: its number for enqueue() and check(), else none (write() then).
    std::optional<std::size_t> prepare(const std::vector<stream::ReceivedFrame>& frames) {
        if (!onDevice_ || frames.empty()) return std::nullopt;
        std::vector<decode::CompressedFrame> packed;
        for (const auto& f : frames) {
            if (f.packed.empty()) return std::nullopt;
            packed.push_back({f.packed.algorithm, f.packed.elemSize, f.packed.bytes});
        }
        try {
            return decoder_.prepare(packed, format_.frameBytes());
        } catch (const DeviceError& e) { // e.g. no pinned memory
            onDevice_ = false, hostReason_ = e.what();
            return std::nullopt;
        }
    }

    // A prepared batch decoded into `out` (its kernel queued), or on the host when the device
    // cannot (e.g. blocks beyond its local memory).
    void enqueue(std::size_t batch, std::vector<stream::ReceivedFrame>& frames,
                 const cl::Buffer& out) {
        if (onDevice_) try {
                decoder_.enqueue(batch, out);
                onDevice += frames.size();
                return;
            } catch (const DeviceError& e) {
                onDevice_ = false, hostReason_ = e.what();
            }
        upload(frames, out);
    }
    void check(std::size_t batch) { decoder_.check(batch); }

    // A stacked feed's batch (decoded frames, one array) into `out` in one copy, queued: the
    // array lives until the session's queue has finished.
    void writeStack(const Array& stack, const cl::Buffer& out) {
        cl::Event event;
        session_.queue().enqueueWriteBuffer(out, CL_FALSE, 0, stack.byteSize(), stack.bytes(),
                                            nullptr, &event);
        session_.record(event, "copy H->D frames");
        asReceived += stack.shape()[0];
    }

    // The run's counts so far: a batch that fell back to the host counts again from there.
    void batchDone() { doneBefore_ = onDevice, receivedBefore_ = asReceived; }

    std::string note() const {
        std::string n;
        if (onDevice) n += std::to_string(onDevice) + " frames decoded on the device";
        if (onHost)
            n += (n.empty() ? "" : ", ") + std::to_string(onHost) + " decoded on the host" +
                 (hostReason_.empty() ? "" : " (" + hostReason_ + ")");
        if (asReceived)
            n += (n.empty() ? "" : ", ") + std::to_string(asReceived) +
                 " uploaded as received (not compressed)";
        return n;
    }

    std::size_t onDevice = 0, onHost = 0, asReceived = 0;

  private:
    // The compressed frames from frames[i] on, decoded on the device; the next frame's index.
    std::size_t decodeRun(const std::vector<stream::ReceivedFrame>& frames, std::size_t i,
                          const cl::Buffer& out) {
        std::vector<decode::CompressedFrame> run;
        for (std::size_t j = i; j < frames.size() && !frames[j].packed.empty(); ++j)
            run.push_back(
                {frames[j].packed.algorithm, frames[j].packed.elemSize, frames[j].packed.bytes});
        decoder_.decode(run, format_.frameBytes(), out, {}, i * format_.frameBytes());
        onDevice += run.size();
        return i + run.size();
    }

    // frames[i], a frame received decoded (or read before), uploaded as it is.
    std::size_t uploadAsReceived(const std::vector<stream::ReceivedFrame>& frames, std::size_t i,
                                 const cl::Buffer& out) {
        const std::size_t bytes = format_.frameBytes();
        cl::Event event;
        session_.queue().enqueueWriteBuffer(out, CL_TRUE, i * bytes, bytes, frames[i].frame.bytes(),
                                            nullptr, &event);
        session_.record(event, "copy H->D frames");
        ++asReceived;
        return i + 1;
    }

    // The CPU decoder (the reference) into host memory, several threads, then one upload.
    void upload(std::vector<stream::ReceivedFrame>& frames, const cl::Buffer& out) {
        const std::size_t bytes = format_.frameBytes(), n = frames.size();
        if (host_.size() < n * bytes) host_.resize(n * bytes);
        const std::size_t threads = std::min<std::size_t>(
            n, std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16));
        auto work = [&](std::size_t t) {
            for (std::size_t i = t; i < n; i += threads) {
                std::byte* to = host_.data() + i * bytes;
                const stream::PackedImage& p = frames[i].packed;
                if (p.empty())
                    std::memcpy(to, frames[i].frame.bytes(), bytes);
                else
                    stream::decompress(p.algorithm, p.elemSize, p.bytes, {to, bytes});
            }
        };
        {
            std::vector<std::jthread> helpers;
            for (std::size_t t = 1; t < threads; ++t)
                helpers.emplace_back(work, t);
            work(0);
        }
        for (const auto& f : frames)
            ++(f.packed.empty() ? asReceived : onHost);
        session_.upload(out, host_.data(), n * bytes, "copy H->D frames");
    }

    ClSession& session_;
    FrameFormat format_;
    decode::FrameDecoder decoder_;
    bool onDevice_;
    std::size_t doneBefore_ = 0, receivedBefore_ = 0;
    std::string hostReason_;
    std::vector<std::byte> host_; // kept between batches
};

// A batch taken from the feed: its frames one by one, or a stacked feed's array of them;
// `prepared` when its decode on the device has begun.
struct Taken {
    std::vector<stream::ReceivedFrame> frames;
    Array stack;
    std::optional<std::size_t> prepared;
    std::size_t count() const { return stack.shape().empty() ? frames.size() : stack.shape()[0]; }
};

// Up to `batch` frames, waiting until that many came or the series ended. A stacked feed's
// array lands in pinned memory of a GPU (pinnedInputScope), so its upload is one DMA.
Taken takeBatch(FrameFeed& feed, std::size_t batch, const DeviceInfo& device) {
    Taken taken;
    if (feed.stacked()) {
        const auto pinned = pinnedInputScope({device});
        taken.stack = feed.takeStack(batch);
        return taken;
    }
    while (taken.frames.size() < batch) {
        std::vector<stream::ReceivedFrame> got = feed.takeNext(batch - taken.frames.size());
        if (got.empty()) break;
        for (auto& f : got)
            taken.frames.push_back(std::move(f));
    }
    return taken;
}

// "stream tcp://…: image I: WHY" for the decoder's "frame K...: WHY" about frame K of a batch
// whose first frame is image `first`.
std::string imageError(const FrameFeed& feed, std::size_t first, const std::string& what) {
    std::size_t k = 0;
    int used = 0;
    if (std::sscanf(what.c_str(), "frame %zu%n", &k, &used) != 1) return what;
    return feed.name() + ": image " + std::to_string(first + k) + what.substr(std::size_t(used));
}

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
    double waitMs = 0, writeMs = 0, processMs = 0;
    std::size_t done = 0, batches = 0;
    try {
        stage.open(session, sources, format, batch, total);
        BatchWriter writer(session, format);
        session.timings().addHostPhase("pipeline set-up (host wall: session, programs, buffers)",
                                       msSince(start));
        // Batch k + 2 is received meanwhile (its own thread); batch k + 1's blocks are
        // planned and its bytes sent up while the device decodes batch k; batch k's spots run
        // once its decode is queued. A decoder's "frame K ..." names the stream's image.
        double prepareMs = 0;
        auto receive = [&feed, batch, &request] { return takeBatch(feed, batch, request.device); };
        std::future<Taken> receiving = std::async(std::launch::async, receive);
        auto take = [&](std::size_t first) {
            auto t = Clock::now();
            Taken next = receiving.get();
            waitMs += msSince(t);
            if (next.count() == 0) return next;
            receiving = std::async(std::launch::async, receive);
            t = Clock::now();
            try {
                next.prepared = writer.prepare(next.frames);
            } catch (const InputError& e) {
                throw InputError(imageError(feed, first, e.what()));
            }
            prepareMs += msSince(t);
            return next;
        };
        for (Taken current = take(0); current.count() > 0;) {
            progress.checkCancel();
            const std::size_t n = current.count();
            auto t = Clock::now();
            try {
                if (!current.stack.shape().empty())
                    writer.writeStack(current.stack, stage.frameBuffer());
                else if (current.prepared)
                    writer.enqueue(*current.prepared, current.frames, stage.frameBuffer());
                else
                    writer.write(current.frames, stage.frameBuffer());
            } catch (const InputError& e) {
                throw InputError(imageError(feed, done, e.what()));
            }
            writeMs += msSince(t);
            Taken next = take(done + n);
            t = Clock::now();
            stage.process(done, n);
            try {
                if (current.prepared) writer.check(*current.prepared);
            } catch (const InputError& e) {
                throw InputError(imageError(feed, done, e.what()));
            }
            writer.batchDone();
            session.finish();
            processMs += msSince(t);
            done += n, ++batches;
            progress.report(double(done) / double(total));
            current = std::move(next);
        }
        session.timings().addHostPhase(
            "pipeline next batch staged (host wall: blocks planned, bytes to pinned memory)",
            prepareMs);
        out.note = "stream pipeline on " + request.device.spec + " (" + request.device.name +
                   "): " + std::to_string(done) + " frames in " + std::to_string(batches) +
                   " batches of up to " + std::to_string(batch) + "; " + writer.note();
        if (const std::string chose = stage.note(); !chose.empty()) out.note += "; " + chose;
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "stream pipeline", request.device);
    }
    auto& timings = session.timings();
    timings.addHostPhase("pipeline waiting for frames (host wall: receive, parse; the next batch "
                         "is taken meanwhile)",
                         waitMs);
    timings.addHostPhase("pipeline frames onto the device (host wall: decode queued, or decoded on "
                         "the host and uploaded)",
                         writeMs);
    timings.addHostPhase("pipeline stage (host wall: kernels, results back)", processMs);
    const auto finishing = Clock::now();
    out.result = stage.finish(done);
    timings.addHostPhase("pipeline finish (host wall: the last results drained)",
                         msSince(finishing));
    out.batches = batches;
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
