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

// Default warp shape (one warp of 4 x 8 fragments: 64 x 64 tiles, the fastest of five on the
// H200's large case) and frames per work-group of xpcs_mma_prepare.
const Tuning& shapeDefaults() {
    static const Tuning t{
        {"MMA_WM", 1}, {"MMA_WN", 1}, {"MMA_MI", 4}, {"MMA_NJ", 8}, {"MMA_PREP_FRAMES", 4}};
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

// Frame-major chunk and frame sums in one kernel (xpcs_mma_prepare).
void prepare(DeviceRun& run, const cl::Buffer& raw, const Chunk& chunk, int rawFrameSize,
             int accumulate) {
    constexpr std::size_t group = 64; // MMA_PREP_WG
    const std::size_t framesPerGroup = shape(run.tuning, "MMA_PREP_FRAMES");
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
                                   {"MMA_PREP_FRAMES", 1, 32}};
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
                 {"MMA_SLOTS", 1}};
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
