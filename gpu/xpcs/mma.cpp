// xpcs variant mma (see mma.hpp and resources/kernels/xpcs_mma.cl).
#include "gpu/xpcs/mma.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/staging.hpp"
#include "gpu/xpcs/recipes.hpp"
#include "gpu/xpcs/tuning.hpp"

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

// The tuning table's mma values on no particular device (the warp shape where wgmma does not
// run, the prepare kernel's and the wgmma kernel's settings): where a tuning does not give one.
const Tuning& shapeDefaults() {
    static const Tuning t = tuningOf("mma", DeviceInfo{}, DType::UInt8);
    return t;
}
std::size_t shape(const Tuning& t, const std::string& name) {
    return static_cast<std::size_t>(valueOr(t, name, shapeDefaults().at(name)));
}

// MMA_TILE and MMA_THREADS of xpcs_mma.cl from the warp shape.
std::size_t mmaTile(const Tuning& t) {
    return shape(t, "MMA_WM") * 16 * shape(t, "MMA_MI");
}
// Work-items of a Gram work-group: MMA_THREADS, or 128 a warpgroup for wgmma.
std::size_t mmaThreads(const Tuning& t) {
    if (valueOr(t, "MMA_WGMMA", 0)) return 128 * shape(t, "MMA_WG_GROUPS");
    return 32 * shape(t, "MMA_WM") * shape(t, "MMA_WN");
}

// MMA_WGMMA=1 (xpcs_wgmma.cl): MMA_WG_GROUPS warpgroups (2, or 1 with two accumulators) of
// m64n128 over 128 x 128 tiles, blocks of MMA_WG_KB pixels (32 or 64) copied MMA_WG_STAGES - 1 -
// MMA_WG_INFLIGHT blocks ahead, flushed between blocks; MMA_WG_REGS > 0 caps its registers
// (NVIDIA), so that as many work-groups as local memory allows are resident.
void checkWgmmaTuning(const Tuning& t, int flushSteps) {
    if (!valueOr(t, "MMA_WGMMA", 0)) return;
    if (shape(t, "MMA_WM") != 8 || shape(t, "MMA_WN") != 1 || shape(t, "MMA_MI") != 1 ||
        shape(t, "MMA_NJ") != 16)
        throw UsageError("xpcs mma: --tune MMA_WGMMA=1 takes the shape of two warpgroups of "
                         "m64n128: --tune MMA_WM=8 --tune MMA_WN=1 --tune MMA_MI=1 --tune "
                         "MMA_NJ=16");
    const int kb = static_cast<int>(shape(t, "MMA_WG_KB")), steps = kb / 32;
    if (kb != 32 && kb != 64)
        throw UsageError("xpcs mma: --tune MMA_WG_KB=" + std::to_string(kb) +
                         " is not a block of pixels wgmma takes; accepted: 32, 64");
    if (flushSteps % steps)
        throw UsageError("xpcs mma: --tune MMA_WGMMA=1 flushes between blocks of " +
                         std::to_string(steps) + " k32 steps: MMA_FLUSH_STEPS (" +
                         std::to_string(flushSteps) + ") must be a multiple of " +
                         std::to_string(steps));
    if (shape(t, "MMA_WG_STAGES") < 2 + shape(t, "MMA_WG_INFLIGHT"))
        throw UsageError("xpcs mma: --tune MMA_WG_STAGES must exceed MMA_WG_INFLIGHT + 1 (the "
                         "copies run at least one block ahead)");
}

bool onNvidia(const DeviceInfo& d) {
    return d.platform.find("NVIDIA") != std::string::npos && d.type == "GPU";
}

// Every kernel of an mma run (program xpcs_mma), with MMA_FUSE set where the run fuses the lag
// sums, its registers capped where registers > 0.
cl::Kernel mmaKernel(DeviceRun& run, const char* name, int registers = 0) {
    const TunableValues fuse{{"MMA_FUSE", run.fused ? "1" : "0"}};
    return programKernel(run, programs::mma, name, fuse, registers);
}

// The Gram kernel: xpcs_wgmma under MMA_WGMMA=1, built with its register cap (MMA_WG_REGS; a
// program of its own then: capped, xpcs_mma_prepare took 0.84 ms on the H200's large case
// instead of 0.70), else xpcs_mma.
cl::Kernel gramKernel(DeviceRun& run) {
    if (!valueOr(run.tuning, "MMA_WGMMA", 0)) return mmaKernel(run, "xpcs_mma");
    return mmaKernel(run, "xpcs_wgmma", valueOr(run.tuning, "MMA_WG_REGS", 0));
}

// Tiles per side of a bin's Gram matrix, and the fused lag sums' partials (4 words for each
// diagonal of each lower tile of each bin; see xpcs_mma_lags.cl).
std::size_t sideTiles(const DeviceRun& run) {
    return run.framePad / mmaTile(run.tuning);
}
std::size_t partialWords(const DeviceRun& run) {
    const std::size_t tiles = sideTiles(run), tile = mmaTile(run.tuning);
    return std::size_t(run.binCount) * tiles * (tiles + 1) / 2 * (2 * tile - 1) * 4;
}

void gramStep(DeviceRun& run, const Chunk& chunk, int accumulate) {
    const std::vector<std::int32_t> work = gemmWorkList(chunk, run.slots, mmaPixels);
    if (!run.work.get()) run.work = run.session.allocate(work.size() * 4, "xpcs mma work");
    run.session.upload(run.work, work.data(), work.size() * 4, "copy H->D work list");
    const std::size_t tiles = sideTiles(run), entries = work.size() / 4;
    const std::size_t threads = mmaThreads(run.tuning);
    const int stride = static_cast<int>(chunk.paddedPixels());
    if (run.fused && !run.gram.get()) // the partials in place of the Gram matrices
        run.gram = run.session.allocate(partialWords(run) * 8, "xpcs mma lag partials");
    cl::Kernel k = gramKernel(run);
    setArgs(k, run.data, run.work, run.gram, run.sums, run.pixelCounts, run.gram, run.frames,
            run.framePad, stride, run.binCount, accumulate);
    run.session.launch(k, "xpcs mma", {{tiles * (tiles + 1) / 2 * threads, entries}, {threads, 1}});
    run.session.finish(); // the work list lives on this stack frame
}

// Whether a run fuses the lag sums into the Gram kernel: one chunk (its Gram entries final in
// one kernel), one slot, no two-time map (it reads the Gram matrix), tiles of at most 64 frames
// (the tile in local memory) and no bin long enough for a mid flush (every sum stays in the
// s32 accumulators), when MMA_FUSE_LAGS=1 asks for it. Off by default: on the H200 the fused
// Gram kernel (3.65 ms on the large case) took longer than the Gram kernel and the shared lag
// sums together (2.01 + 1.72 ms; kernel time 5.10 against 4.94 ms, seed 0.264 against 0.234).
bool fuses(const DeviceRun& run, const std::vector<Chunk>& chunks) {
    if (!valueOr(run.tuning, "MMA_FUSE_LAGS", 0) || run.twotime || run.slots != 1 ||
        chunks.size() != 1 || mmaTile(run.tuning) > 64)
        return false;
    const std::vector<std::int32_t>& offsets = chunks.front().offsets;
    const int flush = valueOr(run.tuning, "MMA_FLUSH_STEPS", mostFlushSteps(32));
    for (std::size_t b = 0; b + 1 < offsets.size(); ++b)
        if ((offsets[b + 1] - offsets[b]) / 32 > flush) return false;
    return true;
}

// g2 and g2_err from the partials the fused Gram kernel left in run.gram.
void fusedLags(DeviceRun& run, const cl::Buffer& g2, const cl::Buffer& g2Err) {
    cl::Kernel k = mmaKernel(run, "xpcs_mma_lags");
    setArgs(k, run.gram, run.sums, run.pixelCounts, g2, g2Err, run.frames,
            static_cast<int>(sideTiles(run)));
    run.session.launch(
        k, "xpcs mma lags",
        {{roundUp(std::size_t(run.frames), 64), std::size_t(run.binCount)}, {64, 1}});
}

// xpcs_mma_prepare over frames [t0, t1) held in raw (frame t0 first).
void prepareFrames(DeviceRun& run, const cl::Buffer& raw, const Chunk& chunk, int rawFrameSize,
                   int accumulate, std::size_t t0, std::size_t t1) {
    const std::size_t group = shape(run.tuning, "MMA_PREP_WG");
    const std::size_t framesPerGroup = shape(run.tuning, "MMA_PREP_FRAMES");
    cl::Kernel k = mmaKernel(run, "xpcs_mma_prepare");
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
void prepare(DeviceRun& run, const Array& frames, const Chunk& chunk, int accumulate) {
    const std::size_t frameBytes = frames.frameSize(), count = frames.frameCount();
    const int rawFrameSize = static_cast<int>((chunk.rowEnd - chunk.rowBegin) * frames.width());
    const std::size_t tuned = shape(run.tuning, "MMA_STREAM_FRAMES"); // 0: 64 MiB of frames
    const std::size_t block = tuned ? tuned : std::max<std::size_t>(1, (64 << 20) / frameBytes);
    if (!valueOr(run.tuning, "MMA_STREAM", 0) || std::size_t(rawFrameSize) != frameBytes ||
        block >= count) {
        uploadRaw(run.session, rawBuffer(run), frames, chunk);
        return prepareFrames(run, rawBuffer(run), chunk, rawFrameSize, accumulate, 0, count);
    }
    StreamUpload stream(run.session, block * frameBytes, "xpcs frames (stream)",
                        uploadDepth(run.session, frames.bytes(), frames.byteSize()));
    auto countOf = [&](std::size_t index) { return std::min(block, count - index * block); };
    auto send = [&](std::size_t index) {
        stream.sendInPlace(index, frames.bytes() + index * block * frameBytes,
                           countOf(index) * frameBytes, "copy H->D frames");
    };
    auto enqueue = [&](std::size_t index, const cl::Buffer& buffer) {
        prepareFrames(run, buffer, chunk, rawFrameSize, accumulate, index * block,
                      index * block + countOf(index));
    };
    streamChunks(stream, (count + block - 1) / block, send, enqueue, [](std::size_t) {});
    run.session.finish(); // before the stream's buffers go
}

// Whether the run's Gram matrices may be uint (MMA_GRAM32, on unless 0): uint8 frames and no
// bin of more than 66 052 pixels, so that every entry, summed over pixel chunks and slots, is
// at most pixels * 255^2 < 2^32 and the uint sums (modulo 2^32) are exact. Where the bound
// fails the run keeps 64-bit entries, whatever the tuning asks.
bool gram32(const Bins& bins, DType d, const Tuning& t) {
    if (!valueOr(t, "MMA_GRAM32", 1) || d != DType::UInt8 || bins.pixelCounts.empty()) return false;
    const std::int64_t most = *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
    return most * 255 * 255 < (std::int64_t(1) << 32);
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
    if (device.nvComputeMajor > 0 && device.nvComputeMajor < 8)
        return {false, "mma.sync on uint8 (m16n8k32) needs compute capability 8.0 or newer; " +
                           device.name + " has " + std::to_string(device.nvComputeMajor) + ".x"};
    return {};
}

void checkMmaTuning(const Tuning& tuning) {
    struct Limit {
        const char* name;
        int min, max;
    };
    static const Limit limits[] = {
        {"MMA_FLUSH_STEPS", 1, 1032},
        {"MMA_EMULATE", 0, 1},
        {"MMA_EMU_BITS", 16, 32},
        {"MMA_SLOTS", 1, 64},
        {"MMA_WM", 1, 8},
        {"MMA_WN", 1, 8},
        {"MMA_MI", 1, 8},
        {"MMA_NJ", 1, 16},
        {"MMA_PREP_FRAMES", 1, 16},
        {"MMA_PREP_WG", 32, 256},
        {"MMA_STREAM", 0, 1},
        {"MMA_PREFETCH", 0, 1},
        {"MMA_STAGE", 0, 1},
        {"MMA_FUSE_LAGS", 0, 1},
        {"MMA_WGMMA", 0, 1},
        {"MMA_WG_KB", 32, 64},
        {"MMA_WG_STAGES", 2, 6},
        {"MMA_WG_INFLIGHT", 0, 1},
        {"MMA_WG_SWIZZLE", 0, 1},
        {"MMA_WG_GROUPS", 1, 2},
        {"MMA_WG_REGS", 0, 255},
        {"MMA_STREAM_FRAMES", 0, 1 << 20},
        {"MMA_GRAM32", 0, 1},
        {"MMA_LAGS", 0, 1},
    };
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
    checkWgmmaTuning(tuning, steps);
    if (valueOr(tuning, "MMA_STAGE", 0) && 4 * shape(tuning, "MMA_MI") % shape(tuning, "MMA_WN"))
        throw UsageError("xpcs mma: --tune MMA_STAGE=1 needs 4*MMA_MI to be a multiple of MMA_WN "
                         "(the work-items share the staged rows evenly)");
}

GpuVariant mmaVariant() {
    GpuVariant v;
    v.id = "mma", v.program = programs::mma;
    v.tuning = [](const DeviceInfo& dev, DType d) { return tuningOf("mma", dev, d); };
    v.layout = [](const Tuning& t) {
        return LayoutSpec{Layout::FrameMajor, std::size_t(mmaPixels), mmaTile(t)};
    };
    v.slots = [](const DeviceInfo&, const Bins&, int, const Tuning& t) {
        return valueOr(t, "MMA_SLOTS", 1);
    };
    v.gramStep = gramStep;
    v.prepare = prepare;
    v.fuses = fuses;
    v.fusedLags = fusedLags;
    v.gram32 = gram32;
    v.checkTuning = checkMmaTuning;
    return v;
}

} // namespace clscope::xpcs
