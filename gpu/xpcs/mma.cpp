// xpcs variant mma (see mma.hpp and resources/kernels/xpcs_mma.cl).
#include "gpu/xpcs/mma.hpp"

#include "core/errors.hpp"

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

// MMA_TILE and MMA_THREADS of xpcs_mma.cl from the warp shape.
std::size_t mmaTile(const Tuning& t) {
    return std::size_t(valueOr(t, "MMA_WM", 2)) * 16 * valueOr(t, "MMA_MI", 2);
}
std::size_t mmaThreads(const Tuning& t) {
    return std::size_t(32) * valueOr(t, "MMA_WM", 2) * valueOr(t, "MMA_WN", 2);
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

// Frame-major chunk and frame sums in one kernel (xpcs_mma_prepare).
void prepare(DeviceRun& run, const cl::Buffer& raw, const Chunk& chunk, int rawFrameSize,
             int accumulate) {
    constexpr std::size_t group = 64, framesPerGroup = 4; // MMA_PREP_WG, MMA_PREP_FRAMES
    const int stride = static_cast<int>(chunk.paddedPixels());
    cl::Kernel k = xpcsKernel(run.session, "xpcs_mma_prepare", run.options);
    setArgs(k, raw, run.pixels, run.offsets, run.data, run.sums, run.frames, rawFrameSize, stride,
            accumulate);
    const std::size_t blocks = (std::size_t(run.frames) + framesPerGroup - 1) / framesPerGroup;
    run.session.launch(k, "xpcs mma prepare",
                       {{blocks * group, std::size_t(run.binCount)}, {group, 1}});
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
    const int bits = valueOr(tuning, "MMA_EMU_BITS", 32);
    const int steps = valueOr(tuning, "MMA_FLUSH_STEPS", mostFlushSteps(32));
    if (bits < 32 && !mmaEmulated(tuning))
        throw UsageError("xpcs mma: --tune MMA_EMU_BITS needs MMA_EMULATE=1");
    if (steps > mostFlushSteps(bits))
        throw UsageError("xpcs mma: --tune MMA_FLUSH_STEPS=" + std::to_string(steps) +
                         " lets a partial sum overflow (" + std::to_string(steps) +
                         " steps x 255^2 x 32 >= 2^" + std::to_string(bits - 1) +
                         "); accepted: 1 to " + std::to_string(mostFlushSteps(bits)));
    const int rows = valueOr(tuning, "MMA_WM", 2) * 16 * valueOr(tuning, "MMA_MI", 2);
    if (rows != valueOr(tuning, "MMA_WN", 2) * 8 * valueOr(tuning, "MMA_NJ", 4))
        throw UsageError("xpcs mma: the tile must be square: MMA_WM*16*MMA_MI (" +
                         std::to_string(rows) + ") must equal MMA_WN*8*MMA_NJ");
}

GpuVariant mmaVariant() {
    GpuVariant v;
    v.id = "mma";
    v.tuning = [](const DeviceInfo& dev, DType) {
        return Tuning{{"MMA_FLUSH_STEPS", mostFlushSteps(32)},
                      {"MMA_EMULATE", onNvidia(dev) ? 0 : 1},
                      {"MMA_SLOTS", 1}};
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
