#include "core/clock.hpp"
#include "core/errors.hpp"
#include "gpu/session.hpp"
#include "gpu/spots/recipes.hpp"
#include "gpu/spots/spots_gpu.hpp"
#include "gpu/staging.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <map>
#include <optional>

namespace clscope::spots {

namespace {

// The tests' parameters as spots.cl's spots_params (double, or float without fp64).
template <class Real> struct KernelParams {
    Real gain, sigmaB, sigmaS, threshold;
    cl_int minCount;
};

int tuningValue(const Params& p, const std::string& name, int fallback) {
    const auto it = p.tuning.find(name);
    return it == p.tuning.end() ? fallback : it->second;
}

// Device buffers of one chunk of frames, and the spots program as this run builds it.
struct DeviceRun {
    DeviceRun(ClSession& session, const Params& params, ProgramRecipe program,
              TunableValues programValues)
        : s(session), p(params), recipe(std::move(program)), values(std::move(programValues)) {}
    ClSession& s;
    const Params& p;
    ProgramRecipe recipe;                      // the run's overrides applied (a kernel lab's fork)
    TunableValues values;                      // every tunable, resolved
    std::map<std::string, cl::Kernel> kernels; // built once per run, not per launch
    cl::Buffer frames, bad, signal, scratchA, scratchB, tableM, tableX, tableY;
    cl::Buffer list, count;   // the compacted signal pixels and their number
    std::size_t capacity = 0; // entries the list holds
    int w = 0, h = 0;
    std::vector<std::uint8_t> params; // spots_params bytes
    bool fp64 = true;
};

// A kernel argument passed as bytes (the spots_params struct).
struct RawArg {
    const std::vector<std::uint8_t>& bytes;
};
void setOne(cl::Kernel& k, cl_uint index, const RawArg& a) {
    k.setArg(index, a.bytes.size(), a.bytes.data());
}
template <class T> void setOne(cl::Kernel& k, cl_uint index, const T& a) {
    k.setArg(index, a);
}

template <class... Args> void setArgs(cl::Kernel& k, const Args&... args) {
    cl_uint index = 0;
    (setOne(k, index++, args), ...);
}

// The launch of a per-pixel kernel by its rule (`rule`: the kernel's name, or spots_local's
// strip form, whose rounding up makes whole STRIP_Y x STRIP_ROWS blocks).
LaunchShape pixelShape(const DeviceRun& r, const std::string& rule, std::size_t frames) {
    return r.recipe.shape(rule, r.values, {std::size_t(r.w), std::size_t(r.h), frames});
}

// The kernel that makes the final mask also fills the signal list: its count starts at 0.
void zeroCount(DeviceRun& r) {
    r.s.fill(r.count, 4, "fill signal count");
}

// Kernel `name` of the run's spots program (gpu/spots/recipes.cpp).
cl::Kernel& spotsKernel(DeviceRun& r, const std::string& name) {
    const auto it = r.kernels.find(name);
    if (it != r.kernels.end()) return it->second;
    return r.kernels.emplace(name, r.s.kernel(r.recipe, r.values, name)).first->second;
}

// The dispersion variants: one launch (local, direct) or three (sat).
void launchDispersion(DeviceRun& r, const std::string& variant, std::size_t frames) {
    zeroCount(r);
    const cl_uint capacity = cl_uint(r.capacity);
    if (variant == "sat") {
        cl::Kernel& rows = spotsKernel(r, "spots_sat_rows");
        setArgs(rows, r.frames, r.bad, r.w, r.h, r.tableM, r.tableX, r.tableY);
        r.s.launch(rows, "spots sat rows",
                   r.recipe.shape("spots_sat_rows", r.values, {std::size_t(r.h), frames}));
        cl::Kernel& cols = spotsKernel(r, "spots_sat_cols");
        setArgs(cols, r.w, r.h, r.tableM, r.tableX, r.tableY);
        r.s.launch(cols, "spots sat cols",
                   r.recipe.shape("spots_sat_cols", r.values, {std::size_t(r.w), frames}));
        cl::Kernel& k = spotsKernel(r, "spots_sat_threshold");
        setArgs(k, r.frames, r.bad, r.w, r.h, RawArg{r.params}, r.tableM, r.tableX, r.tableY,
                r.signal, r.list, capacity, r.count);
        return r.s.launch(k, "spots sat threshold", pixelShape(r, "spots_sat_threshold", frames));
    }
    const std::string name = "spots_" + variant;
    cl::Kernel& k = spotsKernel(r, name);
    setArgs(k, r.frames, r.bad, r.w, r.h, RawArg{r.params}, r.signal, r.list, capacity, r.count);
    const std::string rule = variant == "local" ? localLaunch(r.values) : name;
    r.s.launch(k, "spots " + variant, pixelShape(r, rule, frames));
}

// dispersion_extended: dispersive pixels, erosion, background mean and the strong test.
void launchExtended(DeviceRun& r, std::size_t frames) {
    zeroCount(r);
    cl::Kernel& disp = spotsKernel(r, "spots_ext_dispersive");
    setArgs(disp, r.frames, r.bad, r.w, r.h, RawArg{r.params}, r.scratchA);
    r.s.launch(disp, "spots extended dispersive", pixelShape(r, "spots_ext_dispersive", frames));
    cl::Kernel& erode = spotsKernel(r, "spots_ext_erode");
    setArgs(erode, r.frames, r.bad, r.w, r.h, r.scratchA, r.scratchB);
    r.s.launch(erode, "spots extended erode", pixelShape(r, "spots_ext_erode", frames));
    cl::Kernel& fin = spotsKernel(r, "spots_ext_final");
    setArgs(fin, r.frames, r.bad, r.w, r.h, RawArg{r.params}, r.scratchB, r.signal, r.list,
            cl_uint(r.capacity), r.count);
    r.s.launch(fin, "spots extended final", pixelShape(r, "spots_ext_final", frames));
}

// The list holds 1/listFraction of the chunk's pixels (plus a margin) unless tuned.
constexpr std::size_t listFraction = 16;

// Bytes per frame on the device for a variant (frames, signal and scratch).
std::size_t bytesPerFrame(const std::string& variant, std::size_t plane, DType d) {
    std::size_t b = plane * (dtypeSize(d) + 1) + plane / listFraction * 4;
    if (variant == "sat") b += plane * (4 + 8 + 8);
    if (variant == "extended") b += plane * 2;
    return b;
}

std::vector<std::uint8_t> paramBytes(const Params& p, double threshold, bool fp64) {
    auto pack = [&](auto real) {
        using Real = decltype(real);
        KernelParams<Real> k{Real(p.gain), Real(p.sigmaBackground), Real(p.sigmaStrong),
                             Real(threshold), minCount(p)};
        std::vector<std::uint8_t> bytes(sizeof k);
        std::memcpy(bytes.data(), &k, sizeof k);
        return bytes;
    };
    return fp64 ? pack(double(0)) : pack(float(0));
}

// Every buffer of a run; the frames buffer only when the frames go up whole (a stream lends its
// own two, StreamUpload).
void allocate(DeviceRun& r, const std::string& variant, std::size_t chunk, std::size_t plane,
              DType d, bool frames) {
    if (frames) r.frames = r.s.allocate(chunk * plane * dtypeSize(d), "spots frames");
    r.signal = r.s.allocate(chunk * plane, "spots signal");
    const int tuned = tuningValue(r.p, "LIST_CAPACITY", 0);
    r.capacity = tuned > 0 ? std::size_t(tuned) : chunk * plane / listFraction + 4096;
    r.list = r.s.allocate(r.capacity * 4, "spots signal list");
    r.count = r.s.allocate(4, "spots signal count");
    if (variant == "extended") {
        r.scratchA = r.s.allocate(chunk * plane, "spots dispersive");
        r.scratchB = r.s.allocate(chunk * plane, "spots classes");
    }
    if (variant == "sat") {
        r.tableM = r.s.allocate(chunk * plane * 4, "spots sat count");
        r.tableX = r.s.allocate(chunk * plane * 8, "spots sat sum");
        r.tableY = r.s.allocate(chunk * plane * 8, "spots sat squares");
    }
}

// The chunk's signal pixels into the lists of its frames (`frames`: the chunk's first frame's
// list) and, when given, into `signal` (zeroed by the caller): the list that the mask's kernel
// filled when it fits, else the whole mask. Returns whether the mask had to be fetched.
bool fetchSignal(DeviceRun& r, std::size_t pixels, std::uint8_t* signal,
                 std::vector<std::uint32_t>* frames) {
    const std::size_t plane = std::size_t(r.w) * std::size_t(r.h);
    cl_uint count = 0;
    r.s.download(r.count, &count, 4, "copy D->H signal count");
    if (count > r.capacity) {
        std::vector<std::uint8_t> whole(signal ? 0 : pixels);
        std::uint8_t* mask = signal ? signal : whole.data();
        r.s.download(r.signal, mask, pixels, "copy D->H signal mask (list overflow)");
        for (std::size_t index = 0; index < pixels; ++index)
            if (mask[index]) frames[index / plane].push_back(std::uint32_t(index % plane));
        return true;
    }
    std::vector<cl_uint> list(count);
    r.s.download(r.list, list.data(), count * sizeof(cl_uint), "copy D->H signal list");
    for (const cl_uint index : list) {
        if (signal) signal[index] = 1;
        frames[index / plane].push_back(std::uint32_t(index % plane));
    }
    return false;
}

// Frames per chunk: what the device holds, within 32-bit indices and the largest allocation,
// and at most ~64 MiB of frames so that long stacks stream (staged copies overlap); tuning
// CHUNK_FRAMES caps it further (tests force several chunks with it).
std::size_t chunkFrames(const DeviceInfo& device, const std::string& variant, const Array& a,
                        const Params& p) {
    const std::size_t plane = a.frameSize(), element = dtypeSize(a.dtype());
    const std::uint64_t usable = device.globalMemBytes / 10 * 6;
    std::size_t chunk = std::clamp<std::size_t>(usable / bytesPerFrame(variant, plane, a.dtype()),
                                                1, a.frameCount());
    chunk = std::min(chunk, (std::size_t(UINT32_MAX) - 65536) / plane);
    chunk = std::min(chunk, device.maxAllocBytes / (plane * (variant == "sat" ? 8 : element)));
    chunk = std::min(chunk, (std::size_t(64) << 20) / (plane * element));
    const int tuned = tuningValue(p, "CHUNK_FRAMES", 0);
    if (tuned > 0) chunk = std::min(chunk, std::size_t(tuned));
    return std::max<std::size_t>(chunk, 1);
}

// The stream's grouping tasks joined in frame order; also waited for when a run unwinds (they
// read the frames and the lists).
struct GroupingJoin {
    std::vector<std::future<std::vector<Spot>>>& tasks;
    std::vector<Spot> spots() {
        std::vector<Spot> all;
        for (auto& task : tasks) {
            std::vector<Spot> part = task.get();
            all.insert(all.end(), part.begin(), part.end());
        }
        tasks.clear();
        return all;
    }
    ~GroupingJoin() {
        for (auto& task : tasks)
            if (task.valid()) task.wait();
    }
};

} // namespace

MaskRun thresholdOnDevice(const DeviceInfo& device, const std::string& variant, const Input& in,
                          const Params& params, const Progress& progress,
                          const ProgramOverrides& programs) {
    checkInput(in);
    checkParams(params);
    const Support support = supportsVariant(variant, device, &params);
    if (!support.ok)
        throw UsageError("spots: variant " + variant + " cannot run on " + device.spec + ": " +
                         support.reason);
    const Array& a = in.frames;
    const std::size_t plane = a.frameSize(), count = a.frameCount();
    MaskRun out;
    // DIALS' distance transform gives frames with no non-dispersive pixel a distance of at
    // least H + W + 1; only frames that small differ from the windowed erosion: use the host.
    if (variant == "extended" && int(a.height() + a.width() + 1) < erosionDistance(params)) {
        out.signal = thresholdCpu(in, params, progress);
        out.pixels = signalPixels(out.signal, plane);
        out.note = "frame smaller than the erosion distance: computed on the host";
        return out;
    }
    const auto setUp = std::chrono::steady_clock::now();
    ClSession session(device);
    const ProgramRecipe recipe = programs.apply(spotsRecipe());
    DeviceRun r(session, params, recipe, programValues(recipe, a.dtype(), params, programs));
    r.w = static_cast<int>(a.width()), r.h = static_cast<int>(a.height());
    r.fp64 = device.fp64;
    if (!device.fp64) out.note = "no fp64 on the device: tests in float, approximate";
    const double threshold = params.globalAuto ? autoGlobalThreshold(in) : params.globalThreshold;
    r.params = paramBytes(params, threshold, device.fp64);
    const std::size_t chunk = chunkFrames(device, variant, a, params);
    if (params.signalMask) out.signal.assign(a.size(), 0);
    out.pixels.assign(count, {});
    try {
        allocate(r, variant, chunk, plane, a.dtype(), chunk >= count);
        const std::vector<std::uint8_t> none(in.mask.bad.empty() ? plane : 0, 0); // no copy
        r.bad = session.allocate(plane, "spots pixel mask");
        session.upload(r.bad, in.mask.bad.empty() ? none.data() : in.mask.bad.data(), plane,
                       "copy H->D pixel mask");
        const std::size_t element = dtypeSize(a.dtype()), chunkBytes = chunk * plane * element;
        // Several chunks stream (host copy, DMA and kernels of successive chunks overlap);
        // one chunk goes up directly (pinning staging memory costs more than it saves then).
        std::optional<StreamUpload> stream;
        if (chunk < count) stream.emplace(session, chunkBytes, "spots frames (stream)");
        const cl::Buffer whole = r.frames;
        std::vector<std::future<std::vector<Spot>>> grouping; // per chunk, in frame order
        GroupingJoin join{grouping};
        auto bytesOf = [&](std::size_t t0) {
            return std::min(chunk, count - t0) * plane * element;
        };
        // Host wall times of the run's phases (the labels above and below lie within them).
        session.timings().addHostPhase("spots set-up (host wall: queue, buffers, build, mask up)",
                                       msSince(setUp));
        const auto chunks = std::chrono::steady_clock::now();
        if (stream)
            stream->send(0, a.bytes(), bytesOf(0), "copy H->D frames");
        else
            session.upload(r.frames, a.bytes(), bytesOf(0), "copy H->D frames");
        for (std::size_t t0 = 0, index = 0; t0 < count; t0 += chunk, ++index) {
            const std::size_t n = std::min(chunk, count - t0);
            r.frames = stream ? stream->acquire(index) : whole;
            if (variant == "extended")
                launchExtended(r, n);
            else
                launchDispersion(r, variant, n);
            if (stream) stream->release(index);
            // The next chunk's host copy and DMA overlap these kernels.
            if (stream && t0 + n < count)
                stream->send(index + 1, a.bytes() + (t0 + n) * plane * element, bytesOf(t0 + n),
                             "copy H->D frames");
            std::uint8_t* signal = out.signal.empty() ? nullptr : out.signal.data() + t0 * plane;
            out.maskFetches += fetchSignal(r, n * plane, signal, out.pixels.data() + t0);
            if (stream && !params.threeD) // group these frames while the next ones come in
                grouping.push_back(std::async(std::launch::async, findSpotsInFrames, std::cref(a),
                                              std::ref(out.pixels), std::cref(params), t0, t0 + n));
            session.finish();
            progress.report(double(t0 + n) / double(count));
            progress.checkCancel();
        }
        session.timings().addHostPhase("spots chunks (host wall: copies, launches, waits)",
                                       msSince(chunks));
        if (!grouping.empty()) {
            const auto start = std::chrono::steady_clock::now();
            out.spots = join.spots();
            session.timings().addHostPhase(
                "spots grouping (host wall, waited for after the stream)", msSince(start));
        }
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "spots " + variant, device);
    }
    out.timings = session.timings();
    out.kernelMs = out.timings.kernelMs();
    return out;
}

Result findSpotsWith(const DeviceInfo& device, const std::string& variant, const Input& in,
                     const Params& params, const Progress& progress, MaskRun* details, bool group,
                     const ProgramOverrides& programs) {
    MaskRun mask;
    if (variant == "cpu") {
        const auto start = std::chrono::steady_clock::now();
        mask.signal = thresholdCpu(in, params, progress);
        mask.kernelMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        mask.timings.add("spots cpu threshold", mask.kernelMs, true);
    } else {
        mask = thresholdOnDevice(device, variant, in, params, progress, programs);
    }
    if (mask.pixels.size() != in.frames.frameCount())
        mask.pixels = signalPixels(mask.signal, in.frames.frameSize());
    if (!params.signalMask) mask.signal = {};
    if (!group) mask.spots = std::vector<Spot>{};
    const auto start = std::chrono::steady_clock::now();
    Result r = finishResult(in, std::move(mask.signal), std::move(mask.pixels), params,
                            std::move(mask.spots));
    mask.timings.addHostPhase("spots result (host wall: lists sorted, grouping)", msSince(start));
    if (details) *details = std::move(mask);
    return r;
}

} // namespace clscope::spots
