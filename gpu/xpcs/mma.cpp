// xpcs variant mma (see mma.hpp and resources/kernels/xpcs_mma.cl).
#include "gpu/xpcs/mma.hpp"

#include "core/errors.hpp"
#include "gpu/staging.hpp"

#include <algorithm>

namespace clscope::xpcs {

namespace {

using Tuning = std::map<std::string, int>;

constexpr int mmaPixels = 64;                     // MMA_KB
constexpr std::int64_t stepGain = 255 * 255 * 32; // most an accumulator gains per k32 step

int valueOr(const Tuning& t, const std::string& name, int fallback) {
    const auto it = t.find(name);
    return it == t.end() ? fallback : it->second;
}

// Most steps between flushes with accumulators of `bits` bits held below 2^(bits-1).
int mostFlushSteps(int bits) {
    return static_cast<int>(((std::int64_t(1) << (bits - 1)) - 1) / stepGain);
}

// Default warp shape (one warp of 4 x 8 fragments: 64 x 64 tiles, the fastest of five on the
// H200's large case), frames per work-group of xpcs_mma_prepare and per streamed block (0:
// 64 MiB worth; the seed case's 24 MB then go up at once, streaming cost it 0.5 ms of wall).
const Tuning& shapeDefaults() {
    static const Tuning t{{"MMA_WM", 1}, {"MMA_WN", 1},          {"MMA_MI", 4},
                          {"MMA_NJ", 8}, {"MMA_PREP_FRAMES", 4}, {"MMA_STREAM_FRAMES", 0}};
    return t;
}
std::size_t shape(const Tuning& t, const std::string& name) {
    return static_cast<std::size_t>(valueOr(t, name, shapeDefaults().at(name)));
}

// MMA_TILE and MMA_THREADS of xpcs_mma.cl from the warp shape.
std::size_t mmaTile(const Tuning& t) {
    return shape(t, "MMA_WM") * 16 * shape(t, "MMA_MI");
}
std::size_t mmaThreads(const Tuning& t) {
    return 32 * shape(t, "MMA_WM") * shape(t, "MMA_WN");
}

bool onNvidia(const DeviceInfo& d) {
    return d.platform.find("NVIDIA") != std::string::npos && d.type == "GPU";
}

void gramStep(DeviceRun& run, const Chunk& chunk, int accumulate) {
    const std::vector<std::int32_t> work = gemmWorkList(chunk, run.slots, mmaPixels);
    if (!run.work.get()) run.work = run.session.allocate(work.size() * 4, "xpcs mma work");
    run.session.upload(run.work, work.data(), work.size() * 4, "copy H->D work list");
    const std::size_t tiles = run.framePad / mmaTile(run.tuning), entries = work.size() / 4;
    const std::size_t threads = mmaThreads(run.tuning);
    const int stride = static_cast<int>(chunk.paddedPixels());
    cl::Kernel k = xpcsKernel(run.session, "xpcs_mma", run.options);
    setArgs(k, run.data, run.work, run.gram, run.frames, run.framePad, stride, run.binCount,
            accumulate);
    run.session.launch(k, "xpcs mma", {{tiles * (tiles + 1) / 2 * threads, entries}, {threads, 1}});
    run.session.finish(); // the work list lives on this stack frame
}

// xpcs_mma_prepare over frames [t0, t1) held in raw (frame t0 first).
void prepareFrames(DeviceRun& run, const cl::Buffer& raw, const Chunk& chunk, int rawFrameSize,
                   int accumulate, std::size_t t0, std::size_t t1) {
    constexpr std::size_t group = 64; // MMA_PREP_WG
    const std::size_t framesPerGroup = shape(run.tuning, "MMA_PREP_FRAMES");
    cl::Kernel k = xpcsKernel(run.session, "xpcs_mma_prepare", run.options);
    setArgs(k, raw, run.pixels, run.offsets, run.data, run.sums, run.frames, rawFrameSize,
            static_cast<int>(chunk.paddedPixels()), accumulate, static_cast<int>(t0),
            static_cast<int>(t1));
    const std::size_t blocks = (t1 - t0 + framesPerGroup - 1) / framesPerGroup;
    run.session.launch(k, "xpcs mma prepare",
                       {{blocks * group, std::size_t(run.binCount)}, {group, 1}});
}

// Upload the chunk's frames and make its frame-major layout and frame sums. A chunk of whole
// frames streams in blocks of frames (MMA_STREAM): pinned staging filled by host threads, DMA
// on a queue of its own, each block's prepare kernel overlapping the next block's copies;
// otherwise one (rectangular) upload from pageable memory, then one kernel.
void prepare(DeviceRun& run, const Array& frames, const cl::Buffer& raw, const Chunk& chunk,
             int accumulate) {
    const std::size_t frameBytes = frames.frameSize(), count = frames.frameCount();
    const int rawFrameSize = static_cast<int>((chunk.rowEnd - chunk.rowBegin) * frames.width());
    const std::size_t tuned = shape(run.tuning, "MMA_STREAM_FRAMES"); // 0: 64 MiB of frames
    const std::size_t block = tuned ? tuned : std::max<std::size_t>(1, (64 << 20) / frameBytes);
    if (!valueOr(run.tuning, "MMA_STREAM", 0) || std::size_t(rawFrameSize) != frameBytes ||
        block >= count) {
        uploadRaw(run.session, raw, frames, chunk);
        return prepareFrames(run, raw, chunk, rawFrameSize, accumulate, 0, count);
    }
    StreamUpload stream(run.session, block * frameBytes, "xpcs frames (stream)");
    auto send = [&](std::size_t index) {
        const std::size_t t0 = index * block, n = std::min(block, count - t0);
        stream.send(index, frames.bytes() + t0 * frameBytes, n * frameBytes, "copy H->D frames");
    };
    send(0);
    for (std::size_t t0 = 0, index = 0; t0 < count; t0 += block, ++index) {
        prepareFrames(run, stream.acquire(index), chunk, rawFrameSize, accumulate, t0,
                      std::min(count, t0 + block));
        stream.release(index);
        if (t0 + block < count) send(index + 1); // overlaps this block's kernel
    }
    run.session.finish(); // before the stream's buffers go
}

} // namespace

bool mmaEmulated(const Tuning& tuning) {
    return valueOr(tuning, "MMA_EMULATE", 0) != 0;
}

Support mmaSupport(const DeviceInfo& device) {
    if (!onNvidia(device))
        return {false, "tensor-core mma.sync through inline PTX: NVIDIA OpenCL GPUs only (" +
                           device.platform + " " + device.type +
                           "); its tiling runs emulated elsewhere through xpcs::correlate with "
                           "MMA_EMULATE=1 (the tests)"};
    if (!device.fp64) return {false, "needs fp64 (cl_khr_fp64) for g2"};
    return {};
}

void checkMmaTuning(const Tuning& tuning) {
    struct Limit {
        const char* name;
        int min, max;
    };
    static const Limit limits[] = {{"MMA_FLUSH_STEPS", 1, 1032},
                                   {"MMA_EMULATE", 0, 1},
                                   {"MMA_EMU_BITS", 16, 32},
                                   {"MMA_SLOTS", 1, 64},
                                   {"MMA_WM", 1, 8},
                                   {"MMA_WN", 1, 8},
                                   {"MMA_MI", 1, 8},
                                   {"MMA_NJ", 1, 16},
                                   {"MMA_PREP_FRAMES", 1, 16},
                                   {"MMA_STREAM", 0, 1},
                                   {"MMA_PREFETCH", 0, 1},
                                   {"MMA_STREAM_FRAMES", 0, 1 << 20}};
    for (const Limit& l : limits)
        if (const int v = valueOr(tuning, l.name, l.min); v < l.min || v > l.max)
            throw UsageError("xpcs mma: --tune " + std::string(l.name) + "=" + std::to_string(v) +
                             " is out of range; accepted: [" + std::to_string(l.min) + ", " +
                             std::to_string(l.max) + "]");
    const int bits = valueOr(tuning, "MMA_EMU_BITS", 32);
    const int steps = valueOr(tuning, "MMA_FLUSH_STEPS", mostFlushSteps(32));
    if (bits < 32 && !mmaEmulated(tuning))
        throw UsageError("xpcs mma: --tune MMA_EMU_BITS needs MMA_EMULATE=1");
    if (steps > mostFlushSteps(bits))
        throw UsageError("xpcs mma: --tune MMA_FLUSH_STEPS=" + std::to_string(steps) +
                         " lets a partial sum overflow (" + std::to_string(steps) +
                         " steps x 255^2 x 32 >= 2^" + std::to_string(bits - 1) +
                         "); accepted: 1 to " + std::to_string(mostFlushSteps(bits)));
    const std::size_t rows = mmaTile(tuning);
    if (rows != shape(tuning, "MMA_WN") * 8 * shape(tuning, "MMA_NJ"))
        throw UsageError("xpcs mma: the tile must be square: MMA_WM*16*MMA_MI (" +
                         std::to_string(rows) + ") must equal MMA_WN*8*MMA_NJ");
}

GpuVariant mmaVariant() {
    GpuVariant v;
    v.id = "mma";
    v.tuning = [](const DeviceInfo& dev, DType) {
        Tuning t{{"MMA_FLUSH_STEPS", mostFlushSteps(32)},
                 {"MMA_EMULATE", onNvidia(dev) ? 0 : 1},
                 {"MMA_SLOTS", 1},
                 {"MMA_STREAM", dev.type == "GPU" ? 1 : 0}};
        t.insert(shapeDefaults().begin(), shapeDefaults().end());
        return t;
    };
    v.layout = [](const Tuning& t) {
        return LayoutSpec{Layout::FrameMajor, std::size_t(mmaPixels), mmaTile(t)};
    };
    v.slots = [](const DeviceInfo&, const Bins&, int, const Tuning& t) {
        return valueOr(t, "MMA_SLOTS", 1);
    };
    v.gramStep = gramStep;
    v.prepare = prepare;
    return v;
}

} // namespace clscope::xpcs
