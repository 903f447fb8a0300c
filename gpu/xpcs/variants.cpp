// The xpcs variants: how each lays out a chunk and fills the Gram matrices, their registry
// entries, and correlate(), the dispatcher over them.
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/xpcs/mma.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/recipes.hpp"
#include "gpu/xpcs/runner.hpp"
#include "gpu/xpcs/tuning.hpp"

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
// memory; GEMM_CPU_TILE (default 64, as in xpcs.cl) then takes the place of GEMM_TILE.
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

const GpuVariant& gpuVariant(const std::string& id) {
    static const std::vector<GpuVariant> all{naiveVariant(), orderedVariant(), gemmVariant(),
                                             mmaVariant()};
    for (const GpuVariant& v : all)
        if (v.id == id) return v;
    throw UsageError("xpcs: no OpenCL variant '" + id + "'");
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
    if (variant == "mma") checkMmaTuning(given);
}

// The programs an OpenCL variant builds: its Gram program and the lag sums (mma: gemm's too,
// which runs its frames of other dtypes).
std::vector<std::string> programsOf(const std::string& variant) {
    if (variant == "mma") return {programs::mma, programs::lagSums, programs::gemm};
    return {gpuVariant(variant).program, programs::lagSums};
}

Support needsFp64(const DeviceInfo& d) {
    if (!d.fp64) return {false, "needs fp64 (cl_khr_fp64) for g2 and float32 sums"};
    return {};
}

} // namespace

Result correlate(const DeviceInfo& device, const std::string& variant, const Array& frames,
                 const LabelMask& mask, const Params& params, const Progress& progress,
                 const ProgramOverrides& programs) {
    const std::string& id = variant;
    const VariantEntry entry = AlgorithmRegistry::instance().find("xpcs").variant(id);
    if (id == "mma" && frames.dtype() != DType::UInt8 && !device.isHost()) // bytes only
        return correlate(device, "gemm", frames, mask, params, progress, programs);
    const bool emulated = id == "mma" && mmaEmulated(params.tuning); // any OpenCL device
    if (const Support s = entry.supports(device); !s.ok && !(emulated && !device.isHost()))
        throw UsageError("xpcs variant '" + id + "' cannot run on " + device.spec + ": " +
                         s.reason);
    checkTuning(id, params.tuning);
    if (id == "cpu") return correlateCpu(frames, mask, params, progress);
    return runOnDevice(device, gpuVariant(id), frames, mask, params, progress, programs);
}

std::vector<VariantEntry> xpcsVariants() {
    std::vector<VariantEntry> out;
    const auto add = [&](std::string id, std::string label, VariantKind kind, std::string needs,
                         Tuning defaults) {
        const bool preferred = id == "gemm" || id == "cpu";
        VariantEntry e{{"xpcs", id, label, kind, needs, nlohmann::json(defaults).dump(), preferred},
                       {}};
        if (kind == VariantKind::OpenCL) e.extraCheck = id == "mma" ? mmaSupport : needsFp64;
        if (kind == VariantKind::OpenCL) e.info.programs = programsOf(id);
        if (id == "mma") e.emulation = "MMA_EMULATE";
        out.push_back(std::move(e));
    };
    add("naive", "one work-item per bin and lag (seed kernel 1)", VariantKind::OpenCL,
        "OpenCL 1.2, fp64", {});
    add("ordered", "pixels regrouped by bin, work-group reductions (seed kernel 2)",
        VariantKind::OpenCL, "OpenCL 1.2, fp64", gpuVariant("ordered").tuning({}, DType::UInt8));
    add("gemm", "register-tiled Gram matrix per bin, then lag sums (fast)", VariantKind::OpenCL,
        "OpenCL 1.2, fp64, 16 KiB local memory", gpuVariant("gemm").tuning({}, DType::UInt8));
    add("mma",
        "uint8 Gram matrices on the tensor cores (wgmma on Hopper, else mma.sync); other dtypes "
        "run gemm",
        VariantKind::OpenCL, "NVIDIA GPU (sm_80+), fp64",
        gpuVariant("mma").tuning({}, DType::UInt8));
    add("cpu", "host reference: exact blocked Gram matrices, std::thread", VariantKind::Host,
        "host CPU", {});
    out.push_back(multitauVariantEntry());
    return out;
}

} // namespace clscope::xpcs
