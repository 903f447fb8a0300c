// clscope-cli bench stream [--size 16m|4m] [--threads N]... [--then ALGO --device D [--params
// JSON]] [--file] [--occupancy F] [--json OUT]: the live input's rates on this host for bslz4
// uint16 frames of an EIGER2 16M (4148x4362) or 4M (2068x2162) (with --occupancy: photons
// alone, that share of the pixels non-zero): decoding from memory on N threads (in order, as the
// frame source does); with --device, on that OpenCL device (the compressed bytes uploaded,
// bslz4.cl) and the decoded frames' upload alone (the bounds of a run on it); where libzmq is
// built, a local publisher sending pre-encoded Stream V2 messages as fast as taken, received
// without decoding, then through the frame source with its decoding threads, then (--then) through
// an algorithm on a device as its command runs it on a tcp:// input; with --file the same frames
// from an HDF5 file of bslz4 chunks (read as stored, and through --then's algorithm as its command
// runs a file).
#include "app/cli/bench_stream_case.hpp"
#include "app/cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/stream/compression.hpp"
#include "core/stream/frame_pool.hpp"
#include "core/stream/ordered_pool.hpp"
#include "core/stream/series_encoder.hpp"
#include "core/temp_file.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/pipeline/file_feed.hpp"
#include "gpu/pipeline/frame_stage.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/scale/budget.hpp"
#include "gpu/scale/passes.hpp"
#if defined(CLSCOPE_HAVE_LIVE)
#include "core/stream/live_frames.hpp"
#include "core/stream/loopback.hpp"
#include "core/stream/stream_source.hpp"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>

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

#endif

// The algorithm and request of `--then ALGO [--variant V] [--params P] --device D`.
const Algorithm& thenAlgorithm(const StreamBenchArgs& a) {
    const Algorithm& algorithm = AlgorithmRegistry::instance().find(a.then);
    if (!algorithm.readsFrames())
        throw UsageError("bench stream --then " + a.then + ": reads no frames");
    return algorithm;
}
RunRequest thenRequest(const Algorithm& algorithm, const StreamBenchArgs& a,
                       const std::vector<DeviceInfo>& devices) {
    ParamSet params = algorithm.defaultParams();
    if (!a.params.empty()) params.mergeFile(a.params);
    return RunRequest{devices.front(), a.variant, nullptr, params, {}};
}

// `request` over `sources` as the algorithm's command runs them (default memory budget): a line
// of `frames` frames over the wall since `start`, of which `readyMs` came before the run (the
// `ready` step: the connection, the file's opening); `where` gets the run's timing records.
Line runLine(const Algorithm& algorithm, const RunRequest& request, const InputSources& sources,
             const std::vector<DeviceInfo>& devices, Clock::time_point start, double readyMs,
             const std::string& ready, std::size_t frames, const std::string& what,
             nlohmann::json& where) {
    const BudgetedRun run =
        runWithinBudget(algorithm, request, sources, devices, defaultMemoryBudget(devices));
    const RunInfo& info = run.result->info;
    Line l{what + " " + info.variant + " (" + info.deviceName + ")", 0};
    l.seconds = secondsSince(start);
    l.framesPerSecond = double(frames) / l.seconds;
    // run()'s phases on the host (disjoint; the other records lie within them), and what is
    // outside every phase.
    double phasesMs = 0;
    for (const TimingRecord& r : info.timings)
        if (r.hostPhase) phasesMs += r.totalMs;
    // The rest of the wall: the passes outside their reads and run(), the results' join.
    const double otherMs = 1e3 * l.seconds - readyMs - run.planMs - run.readMs - info.wallMs -
                           run.passOtherMs - run.joinMs;
    char text[300];
    if (!run.note.empty()) // the streaming pipeline: its phases are in the timings below
        std::snprintf(text, sizeof text,
                      "; %s %.0f ms, pipeline %.0f ms (kernels %.1f ms), other %.0f ms",
                      ready.c_str(), readyMs, info.wallMs, info.kernelMs, otherMs);
    else
        std::snprintf(text, sizeof text,
                      "; %s %.0f ms, planned %.0f ms, %zu passes: waiting for frames %.0f "
                      "ms, run() %.0f ms (kernels %.1f ms, outside its host phases %.0f ms), "
                      "between %.0f ms; joined %.0f ms, other %.0f ms",
                      ready.c_str(), readyMs, run.planMs, run.passes, run.readMs, info.wallMs,
                      info.kernelMs, info.wallMs - phasesMs, run.passOtherMs, run.joinMs, otherMs);
    l.note = run.note + text;
    where = {{"passes", run.passes},          {"ready_ms", readyMs},
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

#if defined(CLSCOPE_HAVE_LIVE)
// The received frames through `a.then` on `a.device`, as `clscope-cli ALGO tcp://…` runs them.
Line receiveDecodeRun(const Case& c, std::size_t threads, const StreamBenchArgs& a,
                      nlohmann::json& where) {
    const Algorithm& algorithm = thenAlgorithm(a);
    const std::vector<DeviceInfo> devices = resolveDevices(a.device);
    InputSources sources;
    // Made before the clock starts, as for the file's line: they stand for a user's files
    // made before the series (18M pixels' rings took ~0.3 s of a 16M run's wall on one H200).
    sources.arrays = heldImages(algorithm, c.raw.front());
    auto pub = publisher(c);
    const auto start = Clock::now();
    stream::SourceOptions o = sourceOptions(*pub, threads);
    const RunRequest request = thenRequest(algorithm, a, devices);
    // Compressed frames stay so where the run goes through the streaming pipeline.
    o.keepCompressed = streamsLive(algorithm, request, devices);
    sources.file = o.endpoint;
    auto live = std::make_shared<stream::LiveFrames>(o);
    sources.live = live;
    const double connectMs = 1e3 * secondsSince(start); // connection, start and first image
    Line l = runLine(algorithm, request, sources, devices, start, connectMs, "connected",
                     live->frameCount(), "receive + decode + " + a.then, where);
    l.threads = threads;
    l.note = live->report() + "; " + l.note;
    return l;
}
#endif

// The case's bslz4 frames in an HDF5 file as an EIGER's writer stores them (one chunk a frame,
// the bitshuffle filter's framing, H5Dwrite_chunk) under the temporary folder, removed after:
// read back as stored (the chunks' bytes, FileFeed), and with --then through the algorithm as
// `clscope-cli ALGO FILE` runs it (the chunks uploaded compressed, decoded on the device).
std::vector<Line> fileLines(const Case& c, const StreamBenchArgs& a, nlohmann::json& where) {
    const std::string file = (std::filesystem::temp_directory_path() /
                              ("clscope-bench-stream-" + std::to_string(::getpid()) + ".h5"))
                                 .string();
    struct Removed {
        std::string file;
        ~Removed() {
            std::error_code ec;
            std::filesystem::remove(file, ec);
            unregisterTemporary(file);
        }
    } removed{file};
    {
        H5Writer out(file);
        out.writeStoredFrames(paths::frames, DType::UInt16, {c.frames, c.height, c.width},
                              Compression::Bitshuffle, [&c](std::size_t t) {
                                  return std::span<const std::byte>(c.packed[t % c.packed.size()]);
                              });
        out.commit();
        registerTemporary(file);
    }
    InputSources sources;
    sources.file = file;
    std::vector<Line> lines;
    {
        const auto start = Clock::now();
        InputRole stack;
        stack.id = "frames", stack.defaultPath = paths::frames, stack.stack = true;
        auto feed = pipeline::FileFeed::open(sources, stack);
        if (!feed) throw std::runtime_error(file + ": not read as bslz4 chunks");
        std::size_t frames = 0;
        for (auto got = feed->takeNext(64); !got.empty(); got = feed->takeNext(64))
            frames += got.size();
        Line l{"file read (bslz4 chunks as stored)", 8};
        l.seconds = secondsSince(start);
        l.framesPerSecond = double(frames) / l.seconds;
        l.note = std::to_string(frames) +
                 " frames, read where libhdf5's chunk index puts them (pread, 8 threads; the page "
                 "cache's)";
        lines.push_back(std::move(l));
    }
    if (!a.then.empty()) {
        const Algorithm& algorithm = thenAlgorithm(a);
        const std::vector<DeviceInfo> devices = resolveDevices(a.device);
        sources.arrays = heldImages(algorithm, c.raw.front());
        const auto start = Clock::now();
        lines.push_back(runLine(algorithm, thenRequest(algorithm, a, devices), sources, devices,
                                start, 0, "opened", c.frames, "bslz4 file + " + a.then, where));
    }
    return lines;
}

// "label total ms (count)" for each timing record of the run `what`, one line.
void printTimings(const nlohmann::json& where, const char* what) {
    if (!where.contains("timings")) return;
    std::printf("where the %s run's time goes (summed over passes):", what);
    for (const auto& r : where["timings"])
        std::printf("  %s %.1f ms (%d)", r["label"].get<std::string>().c_str(),
                    r["total_ms"].get<double>(), r["count"].get<int>());
    std::printf("\n");
}

} // namespace

void runStreamBench(StreamBenchArgs a) {
    const Case c = makeCase(a.size == "seed" ? "16m" : a.size, a.frames, a.occupancy);
    std::vector<int>& threads = a.threads;
    if (threads.empty()) threads = {1, int(std::max(1u, std::thread::hardware_concurrency() - 1))};
    std::vector<Line> lines;
    for (int t : threads)
        lines.push_back(decodeFromMemory(c, std::size_t(std::max(t, 1))));
    // Each device's side: decode there, and the decoded frames' upload. Every device of a
    // several-device run, so that each starts the timed run as warm as the first (its programs
    // loaded, its pinned staging kept): with the first alone warmed, a second lane spent 68 ms
    // more pinning its staging than the one-device run it was compared with.
    if (!a.device.empty())
        for (const DeviceInfo& device : resolveDevices(a.device))
            if (device.index >= 0) // an OpenCL device (not the host reference)
                for (Line& l : deviceLines(c, device))
                    lines.push_back(std::move(l));
#if defined(CLSCOPE_HAVE_LIVE)
    lines.push_back(receiveOnly(c));
    for (int t : threads)
        lines.push_back(receiveAndDecode(c, std::size_t(std::max(t, 1))));
    lines.push_back(receiveLive(c, std::size_t(std::max(threads.back(), 1))));
    nlohmann::json where, fileWhere;
    if (!a.then.empty())
        lines.push_back(receiveDecodeRun(c, std::size_t(std::max(threads.back(), 1)), a, where));
#else
    if (!a.then.empty() && !a.file)
        throw UsageError("bench stream --then: this clscope has no live input (--file: a file's)");
    nlohmann::json where, fileWhere;
#endif
    if (a.file)
        for (Line& l : fileLines(c, a, fileWhere))
            lines.push_back(std::move(l));
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
    printTimings(where, "live");
    printTimings(fileWhere, "file");
    if (!where.is_null()) out["then"] = where;
    if (!fileWhere.is_null()) out["then_file"] = fileWhere;
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
