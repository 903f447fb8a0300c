#include "gpu/lab/device_peaks.hpp"

#include "core/atomic_file.hpp"
#include "core/json_parse.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/variant/user_variants.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

namespace clscope {

namespace {

constexpr int launches = 5;    // each probe's best of these
constexpr int lanes = 8 * 8;   // float8 multiply-add chains per work-item (probe_peaks.cl)
constexpr int madSteps = 1024; // PROBE_STEPS
constexpr std::size_t madItemsPerUnit = 4096;

// Per device like the algorithms' tuning: wide groups on GPUs, narrow ones on CPUs.
TunableValues probeValues(const DeviceInfo& device) {
    return {{"PROBE_WG", device.type == "GPU" ? "256" : "64"},
            {"PROBE_STEPS", std::to_string(madSteps)}};
}

// Bytes of each copy buffer: well beyond the caches, well within the device's allocations.
std::size_t copyBytes(const DeviceInfo& device) {
    const std::uint64_t wanted = device.type == "GPU" ? 512ull << 20 : 64ull << 20;
    const std::uint64_t limit = std::max<std::uint64_t>(device.maxAllocBytes / 2, 1ull << 20);
    return std::size_t(std::min(wanted, limit) / 16 * 16);
}

// The fastest of `launches` launches of the kernel, in seconds.
double bestSeconds(ClSession& s, cl::Kernel& kernel, const std::string& label,
                   const LaunchShape& shape) {
    for (int n = 0; n < launches; ++n)
        s.launch(kernel, label, shape);
    s.finish();
    for (const TimingRecord& r : s.timings().records())
        if (r.label == label) return r.minMs * 1e-3;
    return 0;
}

double copyRate(ClSession& s, const ProgramRecipe& recipe, const TunableValues& values) {
    const std::size_t bytes = copyBytes(s.info());
    const cl::Buffer in = s.allocate(bytes, "probe copy input");
    const cl::Buffer out = s.allocate(bytes, "probe copy output");
    s.fill(in, bytes, "probe fill");
    cl::Kernel k = s.kernel(recipe, values, "probe_copy");
    const cl_uint n = cl_uint(bytes / 16);
    k.setArg(0, in), k.setArg(1, out), k.setArg(2, n);
    const double seconds = bestSeconds(s, k, "probe copy", recipe.shape("probe_copy", values, {n}));
    return seconds > 0 ? 2.0 * double(bytes) / seconds : 0;
}

double madRate(ClSession& s, const ProgramRecipe& recipe, const TunableValues& values) {
    const std::size_t items = std::max<std::size_t>(s.info().computeUnits, 1) * madItemsPerUnit;
    const cl::Buffer out = s.allocate(items * sizeof(float), "probe mad output");
    cl::Kernel k = s.kernel(recipe, values, "probe_mad");
    k.setArg(0, out), k.setArg(1, 0.999f), k.setArg(2, 0.001f);
    const double seconds =
        bestSeconds(s, k, "probe mad", recipe.shape("probe_mad", values, {items}));
    return seconds > 0 ? 2.0 * lanes * madSteps * double(items) / seconds : 0;
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return date;
}

} // namespace

nlohmann::json toJson(const DevicePeaks& p) {
    return {{"bytes_per_s", p.bytesPerSecond},
            {"operations_per_s", p.operationsPerSecond},
            {"measured", p.measured}};
}

DevicePeaks devicePeaksFromJson(const nlohmann::json& j) {
    DevicePeaks p;
    p.bytesPerSecond = j.value("bytes_per_s", 0.0);
    p.operationsPerSecond = j.value("operations_per_s", 0.0);
    p.measured = j.value("measured", "");
    return p;
}

ProgramRecipe peaksRecipe() {
    ProgramRecipe r(
        "probe_peaks", {"probe_peaks"},
        {integerTunable("PROBE_WG", 64, 1, 1024, "work-group size of both probes"),
         integerTunable("PROBE_STEPS", madSteps, 1, 1 << 20,
                        "multiply-adds per chain of probe_mad (8 float8 chains a work-item)")});
    r.launch("probe_copy", {{"PROBE_WG"}, {}});
    r.launch("probe_mad", {{"PROBE_WG"}, {}});
    return r;
}

DevicePeaks measurePeaks(const DeviceInfo& device) {
    ClSession s(device);
    const ProgramRecipe recipe = peaksRecipe();
    const TunableValues values = probeValues(device);
    DevicePeaks p;
    p.bytesPerSecond = copyRate(s, recipe, values);
    p.operationsPerSecond = madRate(s, recipe, values);
    p.measured = utcNow();
    return p;
}

PeaksCache::PeaksCache(std::filesystem::path file) : file_(std::move(file)) {}

std::filesystem::path PeaksCache::defaultFile() {
    return userVariantsRoot() / "lab_peaks.json";
}

namespace {

// The kept peaks by device key; none when absent, and when the file is not what clscope keeps
// (said on stderr unless `quiet`): a peaks file nested 200,000 deep made every lab run die.
nlohmann::json readAll(const std::filesystem::path& file, bool quiet) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return nlohmann::json::object();
    std::string defect;
    try {
        nlohmann::json all = parseJson(readWholeFile(file.string()), file.string());
        if (all.is_object()) return all;
        defect = file.string() + ": the kept peaks are not a JSON object";
    } catch (const std::exception& e) {
        defect = e.what();
    }
    if (!quiet) warnDiscarded(defect);
    return nlohmann::json::object();
}

// The peaks kept under one device's key, or why they cannot be.
std::optional<DevicePeaks> peaksOf(const nlohmann::json& entry, std::string& defect) {
    try {
        const DevicePeaks p = devicePeaksFromJson(entry);
        if (p.known() && std::isfinite(p.bytesPerSecond) && std::isfinite(p.operationsPerSecond))
            return p;
    } catch (const nlohmann::json::exception&) {
    }
    defect = "not two positive rates";
    return std::nullopt;
}

} // namespace

std::optional<DevicePeaks> PeaksCache::find(const DeviceInfo& device) const {
    const nlohmann::json all = readAll(file_, false);
    const auto it = all.find(device.key());
    if (it == all.end()) return std::nullopt;
    std::string defect = "not a JSON object";
    const auto peaks = it->is_object() ? peaksOf(*it, defect) : std::nullopt;
    if (!peaks)
        warnDiscarded(file_.string() + ": the kept peaks of " + device.key() + " are " + defect);
    return peaks;
}

void PeaksCache::store(const DeviceInfo& device, const DevicePeaks& peaks) const {
    nlohmann::json all = readAll(file_, true);
    all[device.key()] = toJson(peaks);
    all[device.key()]["device"] = device.name;
    try {
        std::filesystem::create_directories(file_.parent_path());
        writeFileAtomically(file_.string(), jsonText(all, 2) + "\n");
    } catch (const std::exception&) { // a cache that cannot be written is measured again
    }
}

DevicePeaks devicePeaks(const DeviceInfo& device, bool remeasure) {
    const PeaksCache cache(PeaksCache::defaultFile());
    if (!remeasure)
        if (auto kept = cache.find(device)) return *kept;
    const DevicePeaks measured = measurePeaks(device);
    cache.store(device, measured);
    return measured;
}

} // namespace clscope
