// clscope-cli bench stream [--size 16m|4m] [--threads N]... [--then ALGO --device D [--params
// JSON]] [--json OUT]: the live input's rates on this host for bslz4 uint16 frames of an EIGER2 16M
// (4148x4362) or 4M (2068x2162): decoding from memory on N threads (in order, as the frame
// source does); with --device, on that OpenCL device (the compressed bytes uploaded, bslz4.cl)
// and the decoded frames' upload alone (the bounds of a run on it); where libzmq is built, a local
// publisher sending pre-encoded Stream V2 messages as fast as taken, received without decoding,
// then through the frame source with its decoding threads, then (--then) through an algorithm on a
// device as its command runs it on a tcp:// input.
#include "app/cli/bench_stream_case.hpp"
#include "app/cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/stream/compression.hpp"
#include "core/stream/frame_pool.hpp"
#include "core/stream/ordered_pool.hpp"
#include "core/stream/series_encoder.hpp"
#include "gpu/devices.hpp"
#include "gpu/pipeline/frame_stage.hpp"
#if defined(CLSCOPE_HAVE_LIVE)
#include "core/mask/rings.hpp"
#include "core/stream/live_frames.hpp"
#include "core/stream/loopback.hpp"
#include "core/stream/stream_source.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/scale/budget.hpp"
#include "gpu/scale/passes.hpp"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <thread>

namespace clscope::cli {
#if defined(CLSCOPE_HAVE_DECOMPRESS)
namespace {

using namespace bench_stream;

// Decoding from memory: a thread submits every frame's bytes, `threads` decode them, this
// thread takes them in order and gives them back (no copy: LiveFrames' threads copy them into
// a pass's frames, the line below).
Line decodeFromMemory(const Case& c, std::size_t threads) {
    stream::OrderedPool<Array> pool(threads, threads + 2);
    stream::FramePool frames(threads + 3);
    std::atomic<double> decodeSeconds = 0;
    const auto start = Clock::now();
    std::thread submitter([&] {
        for (std::size_t i = 0; i < c.frames; ++i)
            pool.submit([&c, i, &decodeSeconds, &frames] {
                const auto t = Clock::now();
                Array out = frames.take(DType::UInt16, {c.height, c.width});
                stream::decompress("bslz4", 2, c.packed[i % c.packed.size()],
                                   {out.bytes(), out.byteSize()});
                decodeSeconds.fetch_add(secondsSince(t));
                return out;
            });
        pool.finish();
    });
    std::size_t taken = 0;
    for (; auto frame = pool.take(); ++taken)
        frames.give(std::move(*frame));
    submitter.join();
    Line l{"decode from memory", threads};
    l.seconds = secondsSince(start);
    l.framesPerSecond = double(taken) / l.seconds;
    l.decodeMsPerFrame = 1e3 * decodeSeconds / double(taken);
    return l;
}

#if defined(CLSCOPE_HAVE_LIVE)
std::unique_ptr<stream::LoopbackPublisher> publisher(const Case& c) {
    std::vector<stream::Bytes> images;
    for (const auto& p : c.packed)
        images.push_back(stream::encodeImage(0, c.height, c.width, DType::UInt16, p));
    return std::make_unique<stream::LoopbackPublisher>(
        stream::encodeStart(c.height, c.width, DType::UInt16, c.frames), std::move(images),
        c.frames, stream::encodeEnd());
}

// The frame source's options for the local publisher: `threads` decoders, 30 s timeout.
stream::SourceOptions sourceOptions(const stream::LoopbackPublisher& pub, std::size_t threads) {
    stream::SourceOptions o;
    o.endpoint = pub.endpoint(), o.decodeThreads = threads, o.timeoutSeconds = 30;
    return o;
}

Line receiveOnly(const Case& c) {
    auto pub = publisher(c);
    const auto start = Clock::now();
    stream::receiveMessages(pub->endpoint(), c.frames + 2);
    Line l{"receive only (ZeroMQ loopback, no decode)", 0};
    l.seconds = secondsSince(start);
    l.framesPerSecond = double(c.frames) / l.seconds;
    return l;
}

Line receiveAndDecode(const Case& c, std::size_t threads) {
    auto pub = publisher(c);
    const auto start = Clock::now();
    const stream::SourceOptions o = sourceOptions(*pub, threads);
    stream::FrameSource source(o);
    std::size_t frames = 0;
    for (auto part = source.takeFrames(16); !part.empty(); part = source.takeFrames(16))
        for (Array& frame : part)
            ++frames, source.recycle(std::move(frame));
    Line l{"receive + decode (frame source, frames taken)", source.decodeWorkers()};
    l.seconds = secondsSince(start);
    l.framesPerSecond = double(frames) / l.seconds;
    l.note = std::to_string(frames) + " of " + std::to_string(c.frames) + " frames; queue of " +
             std::to_string(source.queueFrames()) + " full " +
             std::to_string(source.queueFullWaits()) + " times";
    return l;
}

// The series through LiveFrames (as a run reads a tcp:// input) in reads of up to 256 MiB, each
// read's array given back for the next (as spots' passes do).
Line receiveLive(const Case& c, std::size_t threads) {
    auto pub = publisher(c);
    const auto start = Clock::now();
    const stream::SourceOptions o = sourceOptions(*pub, threads);
    const stream::LiveFrames live(o);
    const std::size_t per = std::max<std::size_t>(1, (256u << 20) / c.frameBytes());
    for (std::size_t first = 0; first < live.frameCount(); first += per)
        live.recycle(live.read(first, std::min(per, live.frameCount() - first)));
    Line l{"receive + decode (LiveFrames, 256 MiB reads)", threads};
    l.seconds = secondsSince(start);
    l.framesPerSecond = double(live.frameCount()) / l.seconds;
    l.note = live.report();
    return l;
}

// The integer images the run needs that a stream does not carry (required, of the frames'
// shape, e.g. q-bin labels), held in memory: rings 32 pixels wide about the centre, pixels at
// the dtype's largest value in `sample` (module gaps) 0, as a detector's pixel mask leaves them.
std::map<std::string, std::shared_ptr<const Array>> heldImages(const Algorithm& algorithm,
                                                               const Array& sample) {
    std::map<std::string, std::shared_ptr<const Array>> held;
    const LabelMask rings = mask::ringLabels(sample.height(), sample.width(), 32.0);
    const double gap = double((std::uint64_t(1) << (8 * dtypeSize(sample.dtype()))) - 1);
    for (const InputRole& role : algorithm.inputRoles()) {
        if (role.optional || role.stack || role.layout != InputRole::Layout::IntegerImage) continue;
        auto image = std::make_shared<Array>(DType::Int32, Shape{sample.height(), sample.width()});
        auto* to = reinterpret_cast<std::int32_t*>(image->bytes());
        for (std::size_t i = 0; i < rings.labels.size(); ++i)
            to[i] = sample.valueAt(i) == gap ? 0 : rings.labels[i];
        held[role.id] = std::move(image);
    }
    return held;
}

// The received frames through `a.then` on `a.device`, as `clscope-cli ALGO tcp://…` runs them
// (default parameters and memory budget); `where` gets the run's timing records.
Line receiveDecodeRun(const Case& c, std::size_t threads, const StreamBenchArgs& a,
                      nlohmann::json& where) {
    const Algorithm& algorithm = AlgorithmRegistry::instance().find(a.then);
    if (!algorithm.readsFrames())
        throw UsageError("bench stream --then " + a.then + ": reads no frames");
    const std::vector<DeviceInfo> devices = resolveDevices(a.device);
    auto pub = publisher(c);
    const auto start = Clock::now();
    stream::SourceOptions o = sourceOptions(*pub, threads);
    ParamSet params = algorithm.defaultParams();
    if (!a.params.empty()) params.mergeFile(a.params);
    const RunRequest request{devices.front(), a.variant, nullptr, params, {}};
    // Compressed frames stay so where the run goes through the streaming pipeline.
    o.keepCompressed = algorithm.streamStage(request, devices) != nullptr;
    InputSources sources;
    sources.file = o.endpoint;
    sources.arrays = heldImages(algorithm, c.raw.front());
    auto live = std::make_shared<stream::LiveFrames>(o);
    sources.live = live;
    const double connectMs = 1e3 * secondsSince(start); // connection, start and first image
    const BudgetedRun run =
        runWithinBudget(algorithm, request, sources, devices, defaultMemoryBudget(devices));
    const RunInfo& info = run.result->info;
    Line l{"receive + decode + " + a.then + " " + info.variant + " (" + info.deviceName + ")",
           threads};
    l.seconds = secondsSince(start);
    l.framesPerSecond = double(live->frameCount()) / l.seconds;
    // run()'s phases on the host (disjoint; the other records lie within them), and what is
    // outside every phase.
    double phasesMs = 0;
    for (const TimingRecord& r : info.timings)
        if (r.hostPhase) phasesMs += r.totalMs;
    // The rest of the wall: the passes outside their reads and run(), the results' join.
    const double otherMs = 1e3 * l.seconds - connectMs - run.planMs - run.readMs - info.wallMs -
                           run.passOtherMs - run.joinMs;
    char text[300];
    if (!run.note.empty()) // the streaming pipeline: its phases are in the timings below
        std::snprintf(text, sizeof text,
                      "; connected %.0f ms, pipeline %.0f ms (kernels %.1f ms), other %.0f ms",
                      connectMs, info.wallMs, info.kernelMs, otherMs);
    else
        std::snprintf(text, sizeof text,
                      "; connected %.0f ms, planned %.0f ms, %zu passes: waiting for frames %.0f "
                      "ms, run() %.0f ms (kernels %.1f ms, outside its host phases %.0f ms), "
                      "between %.0f ms; joined %.0f ms, other %.0f ms",
                      connectMs, run.planMs, run.passes, run.readMs, info.wallMs, info.kernelMs,
                      info.wallMs - phasesMs, run.passOtherMs, run.joinMs, otherMs);
    l.note = live->report() + (run.note.empty() ? "" : "; " + run.note) + text;
    where = {{"passes", run.passes},          {"connect_ms", connectMs},
             {"plan_ms", run.planMs},         {"read_ms", run.readMs},
             {"wall_ms", info.wallMs},        {"kernel_ms", info.kernelMs},
             {"between_ms", run.passOtherMs}, {"join_ms", run.joinMs},
             {"other_ms", otherMs},           {"run_outside_phases_ms", info.wallMs - phasesMs}};
    where["timings"] = nlohmann::json::array();
    for (const TimingRecord& r : info.timings) { // summed by label over the passes
        auto& all = where["timings"];
        auto same =
            std::find_if(all.begin(), all.end(), [&](auto& t) { return t["label"] == r.label; });
        if (same == all.end())
            all.push_back({{"label", r.label},
                           {"count", r.count},
                           {"total_ms", r.totalMs},
                           {"kernel", r.kernel}});
        else
            (*same)["count"] = (*same)["count"].get<std::size_t>() + r.count,
            (*same)["total_ms"] = (*same)["total_ms"].get<double>() + r.totalMs;
    }
    return l;
}
#endif

// "label total ms (count)" for each timing record, one line.
void printTimings(const nlohmann::json& where) {
    if (!where.contains("timings")) return;
    std::printf("where the run's time goes (summed over passes):");
    for (const auto& r : where["timings"])
        std::printf("  %s %.1f ms (%d)", r["label"].get<std::string>().c_str(),
                    r["total_ms"].get<double>(), r["count"].get<int>());
    std::printf("\n");
}

} // namespace

void runStreamBench(StreamBenchArgs a) {
    const Case c = makeCase(a.size == "seed" ? "16m" : a.size, a.frames);
    std::vector<int>& threads = a.threads;
    if (threads.empty()) threads = {1, int(std::max(1u, std::thread::hardware_concurrency() - 1))};
    std::vector<Line> lines;
    for (int t : threads)
        lines.push_back(decodeFromMemory(c, std::size_t(std::max(t, 1))));
    if (!a.device.empty()) { // the device's side: decode there, and the decoded frames' upload
        const DeviceInfo device = resolveDevice(a.device);
        if (device.index >= 0) // an OpenCL device (not the host reference)
            for (Line& l : deviceLines(c, device))
                lines.push_back(std::move(l));
    }
#if defined(CLSCOPE_HAVE_LIVE)
    lines.push_back(receiveOnly(c));
    for (int t : threads)
        lines.push_back(receiveAndDecode(c, std::size_t(std::max(t, 1))));
    lines.push_back(receiveLive(c, std::size_t(std::max(threads.back(), 1))));
    nlohmann::json where;
    if (!a.then.empty())
        lines.push_back(receiveDecodeRun(c, std::size_t(std::max(threads.back(), 1)), a, where));
#else
    if (!a.then.empty()) throw UsageError("bench stream --then: this clscope has no live input");
    nlohmann::json where;
#endif
    std::printf("stream bench: %zu frames of %zux%zu uint16, bslz4 %.2f MB (ratio %.1f), "
                "%u host threads\n",
                c.frames, c.height, c.width, c.packedMean() / 1e6,
                double(c.frameBytes()) / c.packedMean(), std::thread::hardware_concurrency());
    std::printf("%-42s %7s %10s %9s %10s %11s %10s  %s\n", "what", "threads", "frames/s",
                "wire GB/s", "out GB/s", "decode ms", "wall s", "note");
    nlohmann::json out;
    for (Line& l : lines) {
        l.wireGBs = l.framesPerSecond * c.packedMean() / 1e9;
        l.decodedGBs = l.framesPerSecond * double(c.frameBytes()) / 1e9;
        std::printf("%-42s %7zu %10.1f %9.2f %10.2f %11.2f %10.2f  %s\n", l.what.c_str(), l.threads,
                    l.framesPerSecond, l.wireGBs, l.decodedGBs, l.decodeMsPerFrame, l.seconds,
                    l.note.c_str());
        out["lines"].push_back({{"what", l.what},
                                {"threads", l.threads},
                                {"frames_per_s", l.framesPerSecond},
                                {"wire_GB_s", l.wireGBs},
                                {"decoded_GB_s", l.decodedGBs},
                                {"decode_ms_per_frame", l.decodeMsPerFrame},
                                {"seconds", l.seconds},
                                {"note", l.note}});
    }
    printTimings(where);
    if (!where.is_null()) out["then"] = where;
    out["frames"] = c.frames, out["height"] = c.height, out["width"] = c.width;
    out["bslz4_bytes_mean"] = c.packedMean();
    out["host_threads"] = std::thread::hardware_concurrency();
    if (!a.json.empty()) writeFileAtomically(a.json, out.dump(2) + "\n");
}
#else
void runStreamBench(StreamBenchArgs) {
    throw UsageError("bench stream: this clscope was built without liblz4");
}
#endif

} // namespace clscope::cli
