#include "core/clock.hpp"
#include "core/errors.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/runtime/staging.hpp"
#include "gpu/spots/device_run.hpp"
#include "gpu/spots/recipes.hpp"
#include "gpu/spots/spots_gpu.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <map>

namespace clscope::spots {

namespace {

using namespace device;

// Frames per chunk: what the device holds, within 32-bit indices and the largest allocation,
// and at most ~64 MiB of frames so that long stacks stream (staged copies overlap); tuning
// CHUNK_FRAMES sets it within the device's limits (tests force several chunks with it).
std::size_t chunkFrames(const DeviceInfo& device, const Window& window, const Array& a,
                        const Params& p) {
    const std::size_t plane = a.frameSize(), element = dtypeSize(a.dtype());
    const std::uint64_t usable = device.globalMemBytes / 10 * 6;
    std::size_t chunk = std::clamp<std::size_t>(usable / bytesPerFrame(window, plane, a.dtype()), 1,
                                                a.frameCount());
    chunk = std::min(chunk, (std::size_t(UINT32_MAX) - 65536) / plane);
    chunk = std::min(chunk, device.maxAllocBytes / (plane * largestElement(window, a.dtype())));
    const int tuned = tuningValue(p, "CHUNK_FRAMES", 0);
    if (tuned > 0) return std::clamp<std::size_t>(std::size_t(tuned), 1, chunk);
    chunk = std::min(chunk, (std::size_t(64) << 20) / (plane * element));
    return std::max<std::size_t>(chunk, 1);
}

// The stream's grouping tasks joined in frame order, those done while the stream runs (their
// spots appended then, not all at the end); also waited for when a run unwinds (they read the
// frames and the lists).
struct GroupingJoin {
    std::vector<std::future<std::vector<Spot>>>& tasks;
    std::vector<Spot> all{};
    std::size_t joined = 0;
    void append(std::size_t i) {
        std::vector<Spot> part = tasks[i].get();
        all.insert(all.end(), part.begin(), part.end());
    }
    // The leading tasks that are done.
    void collectReady() {
        for (; joined < tasks.size() &&
               tasks[joined].wait_for(std::chrono::seconds(0)) == std::future_status::ready;
             ++joined)
            append(joined);
    }
    std::vector<Spot> spots() {
        for (; joined < tasks.size(); ++joined)
            append(joined);
        return std::move(all);
    }
    ~GroupingJoin() {
        for (auto& task : tasks)
            if (task.valid()) task.wait();
    }
};

} // namespace

MaskRun maskOnDevice(const Job& job, const Window& window) {
    const DeviceInfo& device = job.device;
    const Input& in = *job.input;
    const Params& params = *job.params;
    const Progress& progress = job.progress;
    const ProgramOverrides& programs = job.programs;
    checkInput(in);
    checkParams(params);
    const Support support = supportsWindow(window, device, &params);
    if (!support.ok)
        throw UsageError("spots: variant " + window.name + " cannot run on " + device.spec + ": " +
                         support.reason);
    const Array& a = in.frames;
    const std::size_t plane = a.frameSize(), count = a.frameCount();
    MaskRun out;
    // DIALS' distance transform gives frames with no non-dispersive pixel a distance of at
    // least H + W + 1; only frames that small differ from the windowed erosion: use the host.
    if (window.extended() && int(a.height() + a.width() + 1) < erosionDistance(params)) {
        out.signal = thresholdCpu(in, params, progress);
        out.pixels = signalPixels(out.signal, plane);
        out.note = "frame smaller than the erosion distance: computed on the host";
        return out;
    }
    const auto setUp = std::chrono::steady_clock::now();
    ClSession session(device);
    const ProgramRecipe recipe = programs.apply(spotsRecipe());
    DeviceRun r(session, params, recipe,
                programValues(recipe, a.dtype(), params, programs, device));
    r.w = static_cast<int>(a.width()), r.h = static_cast<int>(a.height());
    r.fp64 = device.fp64;
    if (!device.fp64) out.note = "no fp64 on the device: tests in float, approximate";
    const double threshold = params.globalAuto ? autoGlobalThreshold(in) : params.globalThreshold;
    r.params = paramBytes(params, threshold, device.fp64);
    const std::size_t chunk = chunkFrames(device, window, a, params);
    if (params.signalMask) out.signal.assign(a.size(), 0);
    out.pixels.assign(count, {});
    try {
        allocate(r, window, chunk, plane, a.dtype(), chunk >= count);
        fitChunk(r, chunk);
        const std::vector<std::uint8_t> none(in.mask.bad.empty() ? plane : 0, 0); // no copy
        r.bad = session.allocate(plane, "spots pixel mask");
        session.upload(r.bad, in.mask.bad.empty() ? none.data() : in.mask.bad.data(), plane,
                       "copy H->D pixel mask");
        const std::size_t element = dtypeSize(a.dtype()), chunkBytes = chunk * plane * element;
        const std::size_t chunks = (count + chunk - 1) / chunk;
        std::atomic<double> groupingMs{0}; // the grouping threads' own time, summed
        std::vector<std::future<std::vector<Spot>>> grouping; // per chunk, in frame order
        GroupingJoin join{grouping};
        auto framesOf = [&](std::size_t index) { return std::min(chunk, count - index * chunk); };
        auto enqueue = [&](std::size_t index, const cl::Buffer& frames) {
            r.frames = frames;
            if (window.extended())
                launchExtended(r, framesOf(index));
            else
                launchDispersion(r, window, framesOf(index));
        };
        auto drain = [&](std::size_t index) {
            const std::size_t t0 = index * chunk, n = framesOf(index);
            std::uint8_t* signal = out.signal.empty() ? nullptr : out.signal.data() + t0 * plane;
            out.maskFetches += fetchSignal(r, n * plane, signal, out.pixels.data() + t0);
            if (chunks > 1 && !params.threeD) // group these frames while the next ones come in
                grouping.push_back(std::async(std::launch::async, [&, t0, n] {
                    const auto begun = std::chrono::steady_clock::now();
                    std::vector<Spot> spots = findSpotsInFrames(a, out.pixels, params, t0, t0 + n);
                    groupingMs += msSince(begun);
                    return spots;
                }));
            join.collectReady();
            session.finish();
            progress.report(double(t0 + n) / double(count));
            progress.checkCancel();
        };
        // Host wall times of the run's phases (the labels above and below lie within them).
        session.timings().addHostPhase("spots set-up (host wall: queue, buffers, build, mask up)",
                                       msSince(setUp));
        const auto streaming = std::chrono::steady_clock::now();
        if (chunks == 1) { // one chunk goes up directly (pinning staging costs more than it saves)
            session.upload(r.frames, a.bytes(), a.byteSize(), "copy H->D frames");
            enqueue(0, r.frames), drain(0);
        } else { // host copy (or queued DMA), DMA and kernels of successive chunks overlap
            StreamUpload stream(session, chunkBytes, "spots frames (stream)",
                                uploadDepth(session, a.bytes(), a.byteSize()));
            auto send = [&](std::size_t index) {
                stream.sendInPlace(index, a.bytes() + index * chunkBytes,
                                   framesOf(index) * plane * element, "copy H->D frames");
            };
            streamChunks(stream, chunks, send, enqueue, drain);
        }
        session.timings().addHostPhase("spots chunks (host wall: copies, launches, waits)",
                                       msSince(streaming));
        if (!grouping.empty()) {
            const auto start = std::chrono::steady_clock::now();
            out.spots = join.spots();
            session.timings().addHostPhase(
                "spots grouping (host wall, waited for after the stream)", msSince(start));
            session.timings().add("spots grouping (host threads, summed)", groupingMs);
        }
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "spots " + window.name, device);
    }
    out.timings = session.timings();
    out.kernelMs = out.timings.kernelMs();
    return out;
}

MaskRun thresholdOnDevice(const DeviceInfo& device, const std::string& variant, const Input& in,
                          const Params& params, const Progress& progress,
                          const ProgramOverrides& programs) {
    return maskOnDevice({device, &in, &params, progress, programs},
                        variantSet().find(variant).traits);
}

} // namespace clscope::spots
