// The xpcs variants, declared once: how each dense OpenCL one lays out a chunk and fills the
// Gram matrices, their entries, checks and runs.
#include "core/errors.hpp"
#include "core/xpcs/lags_sparse.hpp"
#include "core/xpcs/multitau_sparse.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/xpcs/lags_sparse_device.hpp"
#include "gpu/xpcs/mma.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/recipes.hpp"
#include "gpu/xpcs/runner.hpp"
#include "gpu/xpcs/tuning.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace clscope::xpcs {

namespace {

using Tuning = std::map<std::string, int>;

int one(const DeviceInfo&, const Bins&, int, const Tuning&) {
    return 1;
}

// naive: one work-item per (lag, bin) reading the raw frames through the pixel list.
GpuVariant naiveVariant() {
    GpuVariant v;
    v.id = "naive", v.program = programs::seed;
    v.tuning = [](const DeviceInfo& dev, DType d) { return tuningOf("naive", dev, d); };
    v.layout = [](const Tuning&) { return LayoutSpec{Layout::Raw, 1, 1}; };
    v.slots = one;
    v.gramStep = [](DeviceRun& run, const Chunk&, int accumulate) {
        cl::Kernel k = programKernel(run, run.program, "xpcs_naive");
        setArgs(k, run.data, run.pixels, run.offsets, run.gram, run.frames, run.framePad,
                run.binCount, run.stride, accumulate);
        run.session.launch(k, "xpcs naive",
                           declared(programs::seed)
                               .shape("xpcs_naive", run.values,
                                      {std::size_t(run.frames), std::size_t(run.binCount)}));
    };
    return v;
}

// ordered: pixels regrouped by bin (frame-major), one work-group per (lag, bin).
GpuVariant orderedVariant() {
    GpuVariant v;
    v.id = "ordered", v.program = programs::seed;
    v.tuning = [](const DeviceInfo& dev, DType d) { return tuningOf("ordered", dev, d); };
    v.layout = [](const Tuning&) { return LayoutSpec{Layout::FrameMajor, 1, 1}; };
    v.slots = one;
    v.gramStep = [](DeviceRun& run, const Chunk&, int accumulate) {
        const std::size_t wg = static_cast<std::size_t>(run.tuning.at("ORDERED_WG"));
        cl::Kernel k = programKernel(run, run.program, "xpcs_ordered");
        setArgs(k, run.data, run.pixels, run.offsets, run.gram, run.frames, run.framePad,
                run.binCount, run.stride, accumulate);
        run.session.launch(k, "xpcs ordered",
                           {{wg * run.frames, std::size_t(run.binCount)}, {wg, 1}});
    };
    return v;
}

// A tuning value, or `fallback` where it is not set.
int valueOr(const Tuning& t, const std::string& name, int fallback) {
    const auto it = t.find(name);
    return it == t.end() ? fallback : it->second;
}

// gemm's kernel for CPU devices (XPCS_CPU): one work-item per tile, vectors instead of local
// memory; GEMM_CPU_TILE (default 64, declared in recipes.cpp; read by xpcs_gemm.cl) then takes the
// place of GEMM_TILE.
bool gemmOnCpu(const Tuning& t) {
    return valueOr(t, "XPCS_CPU", 0) != 0;
}
int gemmTile(const Tuning& t) {
    return gemmOnCpu(t) ? valueOr(t, "GEMM_CPU_TILE", 64) : t.at("GEMM_TILE");
}

// gemm split-K slots: enough work-groups to fill the device, pieces of >= 1024 pixels, and
// the Gram matrices of all slots within a quarter of the device memory.
int gemmSlots(const DeviceInfo& dev, const Bins& bins, int framePad, const Tuning& t) {
    if (auto it = t.find("GEMM_SLOTS"); it != t.end()) return std::max(1, it->second);
    const std::size_t tiles = framePad / gemmTile(t);
    const std::size_t groups = tiles * (tiles + 1) / 2 * bins.count();
    if (groups == 0 || bins.pixelCounts.empty()) return 1;
    const std::size_t wanted = (8 * std::size_t(dev.computeUnits) + groups - 1) / groups;
    const std::int64_t most = *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
    const std::size_t plane = bins.count() * std::size_t(framePad) * framePad * sumBytes;
    const std::size_t byMemory = std::max<std::size_t>(1, dev.globalMemBytes / 4 / plane);
    return static_cast<int>(std::max<std::size_t>(
        1, std::min({wanted, std::size_t(16), byMemory, std::size_t(most / 1024 + 1)})));
}

// gemm: pixel-major chunk, register-tiled Gram tiles (lower triangle) in local memory.
GpuVariant gemmVariant() {
    GpuVariant v;
    v.id = "gemm", v.program = programs::gemm;
    v.tuning = [](const DeviceInfo& dev, DType d) { return tuningOf("gemm", dev, d); };
    v.layout = [](const Tuning& t) {
        return LayoutSpec{Layout::PixelMajor, std::size_t(t.at("GEMM_K")),
                          std::size_t(gemmTile(t))};
    };
    v.slots = gemmSlots;
    v.gramStep = [](DeviceRun& run, const Chunk& chunk, int accumulate) {
        const std::size_t tile = gemmTile(run.tuning);
        const std::size_t threads = gemmOnCpu(run.tuning) ? 1 : tile / run.tuning.at("GEMM_WPT");
        const std::vector<std::int32_t> work =
            gemmWorkList(chunk, run.slots, run.tuning.at("GEMM_K"));
        if (!run.work.get()) run.work = run.session.allocate(work.size() * 4, "xpcs gemm work");
        run.session.upload(run.work, work.data(), work.size() * 4, "copy H->D work list");
        const std::size_t tiles = run.framePad / tile, entries = work.size() / 4;
        cl::Kernel k = programKernel(run, run.program, "xpcs_gemm");
        setArgs(k, run.data, run.work, run.gram, run.framePad, run.binCount, accumulate);
        run.session.launch(
            k, "xpcs gemm",
            {{tiles * (tiles + 1) / 2 * threads, entries * threads}, {threads, threads}});
        run.session.finish(); // the work list lives on this stack frame
    };
    return v;
}

// Accepted --tune values of the xpcs kernels (UsageError, exit 2, naming the range): the
// host plans with them too (divisions, work-group shapes), so they are checked before use.
struct TuneLimit {
    const char* name;
    int min, max, multiple;
    bool powerOfTwo;
};

const std::vector<TuneLimit>& tuneLimits() {
    static const std::vector<TuneLimit> limits{
        {"ORDERED_WG", 1, 1024, 1, true},      {"GEMM_TILE", 16, 256, 16, false},
        {"GEMM_WPT", 4, 32, 4, false},         {"GEMM_K", 4, 256, 4, false},
        {"GEMM_CPU_TILE", 16, 512, 16, false}, {"GEMM_CPU_CHUNK", 1, 256, 1, false},
        {"GEMM_SLOTS", 1, 64, 1, false},       {"GEMM_MAC_DOUBLE", 0, 1, 1, false},
        {"GEMM_FAST_U8", 0, 1, 1, false},      {"GEMM_DP4A", 0, 1, 1, false},
        {"GEMM_PTX_DP4A", 0, 1, 1, false},     {"XPCS_CPU", 0, 1, 1, false}};
    return limits;
}

std::string rangeText(const TuneLimit& l) {
    std::string s = "[" + std::to_string(l.min) + ", " + std::to_string(l.max) + "]";
    if (l.powerOfTwo) s += ", a power of two";
    if (l.multiple > 1) s += ", a multiple of " + std::to_string(l.multiple);
    return s;
}

void checkTuning(const std::string& variant, const Tuning& given) {
    constexpr int anyMax = 1 << 20; // -D values the table does not name
    for (const auto& [name, value] : given) {
        const auto& limits = tuneLimits();
        const auto it = std::find_if(limits.begin(), limits.end(),
                                     [&n = name](const TuneLimit& l) { return n == l.name; });
        const TuneLimit l = it != limits.end() ? *it : TuneLimit{"", 0, anyMax, 1, false};
        const bool ok = value >= l.min && value <= l.max && value % l.multiple == 0 &&
                        (!l.powerOfTwo || (value & (value - 1)) == 0);
        if (!ok)
            throw UsageError("xpcs " + variant + ": --tune " + name + "=" + std::to_string(value) +
                             " is out of range; accepted: " + rangeText(l));
    }
    const auto tile = given.find("GEMM_TILE"), wpt = given.find("GEMM_WPT");
    if (tile != given.end() && wpt != given.end() && tile->second % wpt->second != 0)
        throw UsageError("xpcs " + variant + ": --tune GEMM_TILE must be a multiple of GEMM_WPT");
}

Support needsFp64(const DeviceInfo& d) {
    if (!d.fp64) return {false, "needs fp64 (cl_khr_fp64) for g2 and float32 sums"};
    return {};
}

using XpcsVariant = Variant<Job, Result, Modes>;

// Beyond the device: the run's mode, and on an OpenCL device whether the 64-bit sums hold the
// frames in memory or their value planes do (runner.cpp; multi-tau: its own bound,
// correlateMultitauStream).
Support accepts(const Modes& modes, bool openCl, const Job& job) {
    if (job.params) {
        if (const Support m = modes.serves(job.params->multitau); !m.ok) return m;
        if (job.params->multitau) return {};
    }
    const XpcsInput* in = job.input;
    if (!openCl || !in || !in->frames) return {};
    const DType dtype = in->frames->dtype();
    const std::string overflow =
        sums64Overflow(dtype, in->largest, in->mostPixels, in->frames->frameCount());
    return overflow.empty() || hasValuePlanes(dtype) ? Support{} : Support{false, overflow};
}

Result denseOnDevice(const Job& job, const GpuVariant& gpu) {
    checkTuning(gpu.id, job.params->tuning);
    if (gpu.checkTuning) gpu.checkTuning(job.params->tuning);
    return runOnDevice(job.device, gpu, *job.input->frames, job.input->labels, *job.params,
                       job.progress, job.programs);
}

// Multi-tau on the host or an OpenCL device (gpu/xpcs/multitau_stream.cpp), two-time maps of
// the binned stack included. A part of a split by pixels (in.band) runs its band on its device;
// part 0 gives the merged result, the others an empty one (one that fails stops the others:
// split_pixels.cpp, Part::failed).
enum class MultitauOn { Cpu, Device, SparseCpu, SparseDevice, PairsDevice };

Result multitauRun(const Job& job, MultitauOn on) {
    const XpcsInput& in = *job.input;
    const Params& params = *job.params;
    const auto blocks = in.blocks ? in.blocks : blocksInMemory(in.frames);
    const FrameBlocks& frames = *blocks;
    if (frames.frameCount() == 0) throw InputError("xpcs: the frame stack holds no frames");
    const MultitauBand* band = on == MultitauOn::Device ? in.band.get() : nullptr;
    checkInputs(frames.read(0, 1), in.labels, params); // dtype, shape, bins, frame time
    Result r;
    switch (on) {
    case MultitauOn::Cpu:
        r = correlateMultitauCpu(frames, in.labels, params, job.progress);
        break;
    case MultitauOn::Device:
        r = correlateMultitauStream(job.device, frames, in.labels, params, job.progress,
                                    job.programs, band);
        break;
    case MultitauOn::SparseCpu:
        r = correlateMultitauSparseCpu(frames, in.labels, params, job.progress);
        break;
    case MultitauOn::SparseDevice:
        r = correlateMultitauSparse(job.device, frames, in.labels, params, job.progress,
                                    job.programs);
        break;
    case MultitauOn::PairsDevice:
        r = correlateMultitauPairs(job.device, frames, in.labels, params, job.progress,
                                   job.programs);
        break;
    }
    if (band && band->part != 0) return r;
    r.twotime = binnedTwotime(frames, in.labels, params);
    r.twotimeBin = twotimeBinOf(frames.frameCount(), params);
    return r;
}

Result cpuRun(const Job& job) {
    if (job.params->multitau) return multitauRun(job, MultitauOn::Cpu);
    checkTuning("cpu", job.params->tuning);
    return correlateCpu(*job.input->frames, job.input->labels, *job.params, job.progress);
}

// A dense-lag sparse run's frames: a file's entries as stored where they were streamed
// (Algorithm::readFor), else the frames read (their non-zero pixels), checked.
std::shared_ptr<const FrameBlocks> entriesOf(const Job& job) {
    const XpcsInput& in = *job.input;
    auto blocks = in.blocks ? in.blocks : blocksInMemory(in.frames);
    if (blocks->frameCount() == 0) throw InputError("xpcs: the frame stack holds no frames");
    checkInputs(blocks->read(0, 1), in.labels, *job.params); // dtype, shape, bins, frame time
    return blocks;
}

// sparse-cpu: multi-tau, or dense lags on the frames' entries.
Result sparseCpuRun(const Job& job) {
    if (job.params->multitau) return multitauRun(job, MultitauOn::SparseCpu);
    return correlateLagsSparseCpu(*entriesOf(job), job.input->labels, *job.params, job.progress);
}

// sparse-pairs: dense lags or multi-tau on the frames' entries on an OpenCL device.
Result sparsePairsRun(const Job& job) {
    if (job.params->multitau) return multitauRun(job, MultitauOn::PairsDevice);
    return correlateLagsSparseDevice(job.device, *entriesOf(job), job.input->labels, *job.params,
                                     job.progress, job.programs);
}

XpcsVariant variant(const std::string& id, const std::string& label, VariantKind kind,
                    const std::string& needs, const Tuning& defaults, bool preferred,
                    std::vector<std::string> programs, Modes modes,
                    std::function<Result(const Job&)> run) {
    const bool openCl = kind == VariantKind::OpenCL;
    VariantEntry e{{"xpcs", id, label, kind, needs, nlohmann::json(defaults).dump(), preferred,
                    std::move(programs)},
                   {}};
    return {std::move(e), std::move(run),
            [modes, openCl](const Job& job) { return accepts(modes, openCl, job); }, modes};
}

// A dense OpenCL variant; one that runs only uint8 frames hands the others to modes.bytesElseBy.
XpcsVariant dense(GpuVariant gpu, const std::string& label, const std::string& needs,
                  bool preferred, std::vector<std::string> programs, Modes modes = {}) {
    const Tuning defaults = gpu.tuning({}, DType::UInt8);
    const std::string id = gpu.id;
    auto run = [gpu, modes](const Job& job) {
        if (!modes.bytesElseBy.empty() && job.input->frames->dtype() != DType::UInt8)
            return variantSet().find(modes.bytesElseBy).run(job);
        return denseOnDevice(job, gpu);
    };
    XpcsVariant v = variant(id, label, VariantKind::OpenCL, needs, defaults, preferred,
                            std::move(programs), modes, run);
    v.entry.extraCheck = needsFp64;
    return v;
}

// naive lists no default tuning (its kernel has no tunables of its own).
XpcsVariant naive() {
    XpcsVariant v = dense(naiveVariant(), "one work-item per bin and lag (seed kernel 1)",
                          "OpenCL 1.2, fp64", false, {programs::seed, programs::lagSums});
    v.entry.info.defaultsJson = nlohmann::json(Tuning{}).dump();
    return v;
}

XpcsVariant mma() {
    XpcsVariant v =
        dense(mmaVariant(),
              "uint8 Gram matrices on the tensor cores (wgmma on Hopper, else "
              "mma.sync); other dtypes run gemm",
              "NVIDIA GPU (sm_80+), fp64", false,
              {programs::mma, programs::lagSums, programs::gemm}, {true, false, "gemm"});
    v.entry.extraCheck = mmaSupport;
    v.entry.emulation = "MMA_EMULATE";
    return v;
}

} // namespace

Support Modes::serves(bool multitauRun) const {
    if (multitauRun && !multitau)
        return {false, "dense only; --multitau runs on the variants multitau, sparse, sparse-cpu, "
                       "sparse-pairs and cpu"};
    if (!multitauRun && !dense)
        return {false, "multi-tau only (add --multitau); dense lags run on gemm, ordered, naive, "
                       "cpu, sparse-cpu and sparse-pairs"};
    return {};
}

const VariantSet<Job, Result, Modes>& variantSet() {
    static const VariantSet<Job, Result, Modes> set(
        "xpcs",
        {naive(),
         dense(orderedVariant(), "pixels regrouped by bin, work-group reductions (seed kernel 2)",
               "OpenCL 1.2, fp64", false, {programs::seed, programs::lagSums}),
         dense(gemmVariant(), "register-tiled Gram matrix per bin, then lag sums (fast)",
               "OpenCL 1.2, fp64, 16 KiB local memory", true, {programs::gemm, programs::lagSums}),
         mma(),
         variant("cpu", "host reference: exact blocked Gram matrices, std::thread",
                 VariantKind::Host, "host CPU", {}, true, {}, {.multitau = true, .hostGram = true},
                 cpuRun),
         variant("multitau",
                 "multi-tau: frames streamed once in blocks, per-level rings, exact integer lag "
                 "sums",
                 VariantKind::OpenCL, "OpenCL 1.2, 64-bit integers", {}, true, {programs::multitau},
                 {false, true},
                 [](const Job& job) { return multitauRun(job, MultitauOn::Device); }),
         variant("sparse-cpu",
                 "dense lags and multi-tau on the frames' entries, never densified: sorted rows "
                 "merged per frame pair or lag",
                 VariantKind::Host, "host CPU", {}, false, {},
                 {.multitau = true, .entries = true, .hostGram = true}, sparseCpuRun),
         variant("sparse",
                 "multi-tau on the frames' entries: scattered into device rings, products per "
                 "entry and lag",
                 VariantKind::OpenCL, "OpenCL 1.2, 64-bit integer atomics", {}, false,
                 {programs::sparse}, {false, true},
                 [](const Job& job) { return multitauRun(job, MultitauOn::SparseDevice); }),
         variant("sparse-pairs",
                 "dense lags and multi-tau on the frames' entries: each pixel's pairs of entries "
                 "added into the Gram matrices or the rows' lag products",
                 VariantKind::OpenCL, "OpenCL 1.2, fp64, 64-bit integer atomics", {}, false,
                 {programs::sparsePairs, programs::lagSums},
                 {.multitau = true, .entries = true, .multitauHeld = true}, sparsePairsRun)});
    return set;
}

} // namespace clscope::xpcs
