#include "gpu/xpcs/runner.hpp"
#include "core/clock.hpp"

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "gpu/xpcs/recipes.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

namespace clscope::xpcs {

cl::Kernel programKernel(DeviceRun& run, const std::string& program, const std::string& kernel,
                         const TunableValues& extra, int registers) {
    ProgramRecipe recipe = run.programs.apply(declared(program));
    if (registers > 0)
        recipe.baseOptions(recipe.baseOptions() + registerCap(run.session.info(), registers));
    TunableValues values = run.values;
    for (const auto& [name, value] : extra)
        values[name] = value;
    return run.session.kernel(recipe, run.programs.over(values), kernel);
}

namespace {

constexpr std::size_t lanes = 8; // XPCS_LANES of xpcs_common.cl

} // namespace

// The host's values for the programs of a run (fromInput): DATA_T and SUM_T of a frame dtype
// (exact 64-bit integer sums for integer data), the layout, and the Gram entry type (uint where
// the host has found every entry below 2^32, with the lag products in double: XPCS_NARROW).
TunableValues hostValues(DType d, Layout layout, bool gram32) {
    static const std::map<DType, std::pair<std::string, std::string>> types{
        {DType::UInt8, {"uchar", "ulong"}},
        {DType::UInt16, {"ushort", "ulong"}},
        {DType::UInt32, {"uint", "ulong"}},
        {DType::Int32, {"int", "long"}}};
    const auto it = types.find(d);
    const auto& [data, sum] =
        it != types.end() ? it->second : std::pair<std::string, std::string>{"float", "double"};
    return {{"DATA_T", data},
            {"SUM_T", sum},
            {"DATA_UCHAR", d == DType::UInt8 ? "1" : "0"},
            {"SUM_FLOAT", sum == "double" ? "1" : "0"},
            {"LAYOUT", std::to_string(static_cast<int>(layout))},
            {"GRAM_T", gram32 ? "uint" : sum},
            {"XPCS_NARROW", gram32 ? "1" : "0"}};
}

std::map<std::string, int> runTuning(std::map<std::string, int> base, const Params& params,
                                     const ProgramOverrides& programs) {
    for (const auto& [name, value] : params.tuning)
        base[name] = value;
    for (const auto& [name, value] : integers(programs.values))
        base[name] = value;
    return base;
}

void configure(DeviceRun& run, const std::map<std::string, int>& tuning, DType d, Layout layout,
               bool gram32, const ProgramOverrides& programs, const std::string& program) {
    TunableValues values = tunableValues(tuning);
    for (auto& [name, value] : hostValues(d, layout, gram32))
        values[name] = value;
    run.programs = programs, run.program = program;
    run.values = programs.over(std::move(values));
    run.tuning = tuning;
}

void uploadPixelCounts(DeviceRun& run, const Bins& bins) {
    const std::vector<std::int64_t>& counts = bins.pixelCounts;
    run.pixelCounts = run.session.allocate(counts.size() * 8, "xpcs pixel counts");
    run.session.upload(run.pixelCounts, counts.data(), counts.size() * 8, "copy H->D pixel counts");
}

std::uint64_t usableBytes(const DeviceInfo& dev) {
    return dev.globalMemBytes / 10 * 8;
}

void refuseGram(const DeviceInfo& dev, const std::string& subject, std::uint64_t bytes,
                const std::string& advice) {
    throw DeviceError(subject + " need " + byteText(bytes) + " but " + dev.spec + " (" + dev.name +
                      ") has " + byteText(usableBytes(dev)) + " usable (max allocation " +
                      byteText(dev.maxAllocBytes) + "); " + advice);
}

// A CPU device (PoCL) allocates its buffers in host memory, beside the frames: there the raw
// chunk and its reordered copy each stay under a sixteenth of the frames (at least 16 MiB) and
// the Gram matrices of a group of bins under an eighth (one bin at least), so that a run
// peaks near 1.5x the frames (issue 13).
std::uint64_t hostBudget(const Array& frames) {
    return std::max<std::uint64_t>(frames.byteSize() / 16, 16 << 20);
}

namespace {

// Largest chunk (labelled pixels, image rows) the device holds next to the Gram matrices.
std::pair<std::size_t, std::size_t> chunkLimits(const DeviceInfo& dev, const Array& frames,
                                                const Bins& bins, std::size_t fixedBytes,
                                                std::size_t framePad, const Params& params) {
    const std::uint64_t usable = usableBytes(dev);
    if (fixedBytes + (16 << 20) > usable || fixedBytes / 2 > dev.maxAllocBytes)
        refuseGram(dev, "xpcs: the Gram matrices", fixedBytes, "use fewer frames or bins");
    // Raw chunk and reordered chunk share what is left; each is one allocation.
    std::uint64_t each = std::min<std::uint64_t>(dev.maxAllocBytes, (usable - fixedBytes) / 2);
    if (dev.type == "CPU") each = std::min(each, hostBudget(frames));
    const std::size_t element = dtypeSize(frames.dtype());
    const std::size_t rowBytes = frames.frameCount() * frames.width() * element;
    const std::size_t pixelBytes = std::max(framePad, frames.frameCount()) * element;
    const std::size_t margin = bins.count() * 64; // padding of the bins in a chunk
    std::size_t maxPixels = each / pixelBytes > margin ? each / pixelBytes - margin : 1;
    if (params.chunkPixels) maxPixels = std::min(maxPixels, params.chunkPixels);
    return {maxPixels, std::max<std::size_t>(1, each / rowBytes)};
}

} // namespace

// Raw frames of rows [rowBegin, rowEnd) of every frame, uploaded as one (T, rows*W) block
// straight from the frames (a rectangular write: no host staging copy). Blocking, like every
// upload, so that no error path frees the frames while the queue reads them.
void uploadRaw(ClSession& s, const cl::Buffer& raw, const Array& frames, const Chunk& c) {
    const std::size_t element = dtypeSize(frames.dtype());
    const std::size_t rowBytes = frames.width() * element,
                      frameBytes = frames.frameSize() * element;
    const std::size_t block = (c.rowEnd - c.rowBegin) * rowBytes;
    if (block == frameBytes)
        return s.upload(raw, frames.bytes(), frames.byteSize(), "copy H->D frames");
    try {
        const cl::array<cl::size_type, 3> origin{0, 0, 0}, from{c.rowBegin * rowBytes, 0, 0},
            region{block, frames.frameCount(), 1};
        s.queue().enqueueWriteBufferRect(raw, CL_TRUE, origin, from, region, block, 0, frameBytes,
                                         0, frames.bytes());
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "copy H->D frames", s.info());
    }
}

const cl::Buffer& rawBuffer(DeviceRun& run) {
    if (!run.raw.get()) run.raw = run.session.allocate(run.rawBytes, "xpcs raw frames");
    return run.raw;
}

namespace {

// Raw chunk -> the variant's layout (no copy for layout 0).
void reorder(DeviceRun& run, const cl::Buffer& raw, const Chunk& c, const LayoutSpec& spec,
             int rawFrameSize) {
    const int padded = static_cast<int>(c.paddedPixels());
    if (spec.layout == Layout::Raw) return;
    if (spec.layout == Layout::FrameMajor) {
        cl::Kernel k = programKernel(run, run.program, "xpcs_reorder_frame_major");
        setArgs(k, raw, run.pixels, run.data, run.frames, rawFrameSize, padded);
        return run.session.launch(k, "xpcs reorder",
                                  {{c.paddedPixels(), std::size_t(run.frames)}, {64, 1}});
    }
    cl::Kernel k = programKernel(run, run.program, "xpcs_reorder_pixel_major");
    setArgs(k, raw, run.pixels, run.data, run.frames, rawFrameSize, padded, run.framePad);
    if (run.onCpu()) // a work-item per 64 frames of 16 pixels
        return run.session.launch(
            k, "xpcs reorder",
            {{roundUp(run.framePad, 64) / 64, roundUp(roundUp(c.paddedPixels(), 16) / 16, 16)},
             {1, 16}});
    run.session.launch(k, "xpcs reorder",
                       {{roundUp(run.framePad, 32), roundUp(c.paddedPixels(), 32) / 4}, {32, 8}});
}

void frameSums(DeviceRun& run, Layout layout, int accumulate) {
    cl::Kernel k = programKernel(run, run.program, "xpcs_frame_sums");
    setArgs(k, run.data, run.pixels, run.offsets, run.sums, run.frames, run.binCount, run.stride,
            accumulate);
    const std::size_t bins = run.binCount;
    if (run.onCpu() && layout == Layout::PixelMajor) // a work-item per (16 frames, bin)
        return run.session.launch(k, "xpcs frame sums",
                                  {{roundUp(run.framePad, 16) / 16, bins}, {1, 1}});
    if (run.onCpu()) // a work-item per (frame, bin)
        return run.session.launch(k, "xpcs frame sums", {{roundUp(run.frames, 16), bins}, {16, 1}});
    run.session.launch(k, "xpcs frame sums",
                       {{std::size_t(run.frames), lanes * run.binCount}, {32, lanes}});
}

} // namespace

// g2 and g2_err from the Gram diagonals, on the device (or the variant's fused lag sums).
void lagSums(DeviceRun& run, const GpuVariant& variant, Result& result) {
    ClSession& s = run.session;
    const std::size_t cells = result.g2.size();
    cl::Buffer g2 = s.allocate(cells * 8, "xpcs g2"), err = s.allocate(cells * 8, "xpcs g2_err");
    if (run.fused) {
        variant.fusedLags(run, g2, err);
    } else {
        // 40 registers (56 uncapped): 6 work-groups resident per multiprocessor instead of 4;
        // on the H200's large case 0.507 ms against 0.567 (48: 0.524, 32: 0.779, spilling).
        // A program of its own: the cap would refuse the Gram kernels (wgmma needs 90).
        cl::Kernel k = programKernel(run, programs::lagSums, "xpcs_lag_sums", {}, 40);
        setArgs(k, run.gram, run.sums, run.pixelCounts, g2, err, run.frames, run.framePad,
                run.binCount, run.slots);
        const std::size_t lagGroups = roundUp(run.frames, 32) / 32, bins = run.binCount;
        const auto order = run.tuning.find("XPCS_LAG_ORDER"); // the bins first (xpcs_lags.cl)
        const bool binsFirst = order == run.tuning.end() || order->second;
        const std::size_t x = binsFirst ? bins : lagGroups, y = binsFirst ? lagGroups : bins;
        s.launch(k, "xpcs lag sums", {{32 * x, lanes * y}, {32, lanes}});
    }
    s.download(g2, result.g2.data(), cells * 8, "copy D->H g2");
    s.download(err, result.g2Err.data(), cells * 8, "copy D->H g2_err");
}

namespace {

// Plan the chunks and allocate the run's buffers (the raw frames on first use; no Gram
// matrices when the variant fuses the lag sums into its Gram step).
void prepare(DeviceRun& run, const GpuVariant& variant, const DeviceInfo& device,
             const Array& frames, const Bins& bins, const LayoutSpec& spec, const Params& params,
             std::vector<Chunk>& chunks) {
    ClSession& session = run.session;
    const std::size_t pad = run.framePad, frameCount = frames.frameCount();
    const std::size_t gramBytes =
        std::size_t(run.slots) * bins.count() * pad * pad * run.gramElement;
    const std::size_t sumsBytes = bins.count() * frameCount * sumBytes;
    const auto [maxPixels, maxRows] =
        chunkLimits(device, frames, bins, gramBytes + sumsBytes, pad, params);
    chunks = planChunks(bins, frames.height(), frames.width(), spec, maxPixels, maxRows);
    std::size_t mostRows = 0, mostPixels = 1;
    for (const Chunk& c : chunks)
        mostRows = std::max(mostRows, c.rowEnd - c.rowBegin),
        mostPixels = std::max(mostPixels, c.paddedPixels());
    const auto start = std::chrono::steady_clock::now();
    const std::size_t element = dtypeSize(frames.dtype());
    run.rawBytes = mostRows * frames.width() * frameCount * element;
    run.data =
        spec.layout == Layout::Raw
            ? rawBuffer(run)
            : session.allocate(mostPixels * std::max(pad, frameCount) * element, "xpcs chunk");
    run.pixels = session.allocate(mostPixels * 4, "xpcs chunk pixels");
    run.offsets = session.allocate((bins.count() + 1) * 4, "xpcs chunk offsets");
    run.fused = !run.planeShift && variant.fuses && variant.fuses(run, chunks);
    if (!run.fused) run.gram = session.allocate(gramBytes, "xpcs gram");
    run.sums = session.allocate(sumsBytes, "xpcs frame sums");
    uploadPixelCounts(run, bins);
    session.timings().add("xpcs buffers (host)", msSince(start));
}

// Upload, reorder and correlate one chunk; chunk 0 stores, the next ones add. Progress moves
// from `from` to `to` over the chunk's steps.
void processChunk(DeviceRun& run, const GpuVariant& variant, const LayoutSpec& spec,
                  const Array& frames, const Chunk& c, int accumulate, const Progress& progress,
                  double from, double to) {
    const int rawFrameSize = static_cast<int>((c.rowEnd - c.rowBegin) * frames.width());
    run.stride = spec.layout == Layout::Raw          ? rawFrameSize
                 : spec.layout == Layout::FrameMajor ? static_cast<int>(c.paddedPixels())
                                                     : run.framePad;
    run.session.upload(run.pixels, c.source.data(), c.source.size() * 4, "copy H->D pixels");
    run.session.upload(run.offsets, c.offsets.data(), c.offsets.size() * 4, "copy H->D pixels");
    if (variant.prepare) {
        variant.prepare(run, frames, c, accumulate);
    } else {
        uploadRaw(run.session, rawBuffer(run), frames, c);
        reorder(run, rawBuffer(run), c, spec, rawFrameSize);
    }
    run.session.finish();
    progress.report(from + 0.2 * (to - from));
    progress.checkCancel();
    variant.gramStep(run, c, accumulate);
    progress.report(from + 0.9 * (to - from));
    progress.checkCancel();
    if (!variant.prepare) frameSums(run, spec.layout, accumulate);
    run.session.finish(); // chunk buffers are reused by the next chunk
}

// The value planes of frames whose 64-bit sums could overflow (xpcs::sums64Overflow, from the
// largest value the host finds), or nothing: the frames themselves are exact.
std::optional<ValuePlanes> planesIfNeeded(const GpuVariant& variant, const Array& frames,
                                          const LabelMask& mask, const Bins& bins) {
    const std::string overflow = sums64Overflow(
        frames.dtype(), largestMagnitude(frames, mask),
        *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end()), frames.frameCount());
    if (overflow.empty()) return std::nullopt;
    std::optional<ValuePlanes> planes = splitValues(frames);
    if (!planes) throw UsageError("xpcs variant '" + variant.id + "' cannot run: " + overflow);
    return planes;
}

} // namespace

// One run over every bin of mask.
Result runBins(const DeviceInfo& device, const GpuVariant& variant, const Array& frames,
               const LabelMask& mask, const Params& params, const Progress& progress,
               const ProgramOverrides& programs) {
    const auto start = std::chrono::steady_clock::now();
    checkInputs(frames, mask, params);
    const Bins bins = makeBins(mask);
    const std::optional<ValuePlanes> planes = planesIfNeeded(variant, frames, mask, bins);
    const Array& input = planes ? planes->frames : frames; // what the device correlates
    Result result = makeLagResult(bins, frames.frameCount(), params);
    // The tuning table, --tune and the program overrides: the host plans with the values the
    // kernels are built with.
    const std::map<std::string, int> tuning =
        runTuning(variant.tuning(device, input.dtype()), params, programs);
    const LayoutSpec spec = variant.layout(tuning);
    ClSession session(device);
    std::optional<DeviceRun> held(std::in_place, session);
    DeviceRun& run = *held;
    // The bound of 32-bit entries (uint8, at most 66 052 pixels a bin) keeps every product of
    // the lag sums below 2^53: XPCS_NARROW forms them in double (xpcs_lags.cl).
    const bool gram32 = !planes && variant.gram32 && variant.gram32(bins, input.dtype(), tuning);
    if (gram32) {
        run.gramElement = 4;
        session.timings().add("xpcs gram 32-bit (host)", 0.0); // says which one ran
    }
    if (planes) session.timings().add(valuePlanesTiming, 0.0); // likewise
    run.planeShift = planes ? planes->shift : 0;
    configure(run, tuning, input.dtype(), spec.layout, gram32, programs, variant.program);
    run.frames = static_cast<int>(input.frameCount());
    run.framePad = static_cast<int>(roundUp(input.frameCount(), spec.frameAlign));
    run.binCount = static_cast<int>(bins.count());
    run.slots = variant.slots(device, bins, run.framePad, tuning);
    run.twotime = !result.twotime.empty();
    try {
        std::vector<Chunk> chunks;
        prepare(run, variant, device, input, bins, spec, params, chunks);
        session.timings().add("xpcs setup: checks, plan, buffers (host)", msSince(start));
        const auto computing = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            const double n = static_cast<double>(chunks.size());
            processChunk(run, variant, spec, input, chunks[i], i > 0, progress,
                         0.9 * static_cast<double>(i) / n, 0.9 * static_cast<double>(i + 1) / n);
            progress.report(0.9 * static_cast<double>(i + 1) / n);
            progress.checkCancel();
        }
        if (planes) {
            planeStatistics(run, bins, result);
        } else {
            lagSums(run, variant, result);
            progress.report(0.95);
            twotimeMaps(run, bins, frames.dtype(), result);
        }
        session.finish();
        session.timings().addHostPhase("xpcs upload, kernels, downloads (host wall)",
                                       msSince(computing));
        const auto releasing = std::chrono::steady_clock::now();
        held.reset();
        session.timings().add("xpcs buffers released (host)", msSince(releasing));
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "xpcs " + variant.id, device);
    }
    result.device = device.spec + " (" + device.name + ")";
    result.variant = variant.id;
    result.timings = session.timings();
    result.kernelMs = result.timings.kernelMs();
    progress.report(1.0);
    return result;
}

} // namespace clscope::xpcs
