#include "gpu/bench.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/runtime/staging.hpp"
#include "gpu/variant/user_variants.hpp"

#include <algorithm>

namespace clscope {

namespace {

// The chosen variant ids, in registry order; UsageError for an id the algorithm lacks.
std::vector<std::string> chosenVariants(const Algorithm& algorithm,
                                        const std::vector<std::string>& wanted) {
    for (const std::string& id : wanted)
        algorithm.variant(id); // throws for unknown ids
    std::vector<std::string> out;
    for (const VariantEntry& v : algorithm.variants())
        if (wanted.empty() || std::find(wanted.begin(), wanted.end(), v.info.id) != wanted.end())
            out.push_back(v.info.id);
    for (const std::string& id : wanted) // user variants (user:NAME), as asked
        if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
    return out;
}

std::string describe(const std::vector<DeviceInfo>& devices) {
    std::string specs, names;
    for (const DeviceInfo& d : devices) {
        specs += (specs.empty() ? "" : ",") + d.spec;
        if (names.find(d.name) == std::string::npos) names += (names.empty() ? "" : ", ") + d.name;
    }
    return specs + " (" + (devices.size() > 1 ? std::to_string(devices.size()) + "x " : "") +
           names + ")";
}

// Whether the variant runs on every device of the set, with the first reason it does not.
Support supportsAll(const Algorithm& algorithm, const BenchCase& c,
                    const std::vector<DeviceInfo>& devices, const std::string& variant) {
    // A user variant runs as its base variant: the base's checks are its own.
    const VariantEntry entry = algorithm.variant(builtInVariantOf(algorithm.id(), variant));
    for (const DeviceInfo& d : devices)
        if (const Support s = algorithm.supports(entry, d, c.input.get(), &c.params); !s.ok)
            return s;
    return {};
}

RunRequest requestFor(const BenchCase& c, const DeviceInfo& device, const std::string& variant,
                      const BenchOptions& o, bool reference) {
    RunRequest r;
    r.device = device;
    r.variant = variant;
    r.input = reference && c.referenceInput ? c.referenceInput : c.input;
    r.params = c.params;
    r.tuning = o.tuning;
    r.split = o.split;
    return r;
}

// Warm-up plus `repeat` timed runs of one variant on one device.
BenchRow benchVariant(const Algorithm& algorithm, const BenchCase& c,
                      const std::vector<DeviceInfo>& devices, const std::string& variant,
                      const BenchOptions& o, const AlgorithmResult* reference) {
    BenchRow row;
    row.algorithm = algorithm.id(), row.variant = variant, row.size = o.size;
    row.description = c.description;
    row.device = describe(devices);
    const Support s = supportsAll(algorithm, c, devices, variant);
    if (!s.ok) {
        row.note = s.reason;
        return row;
    }
    std::vector<double> kernelMs, wallMs;
    TimingStats labels;
    std::shared_ptr<AlgorithmResult> last;
    for (int run = 0; run <= o.repeat; ++run) {
        last = runOnDevices(algorithm, requestFor(c, devices.front(), variant, o, false), devices);
        if (run == 0) { // warm-up: program builds, first touches
            row.firstWallMs = last->info.wallMs;
            continue;
        }
        kernelMs.push_back(last->info.kernelMs);
        wallMs.push_back(last->info.wallMs);
        for (const TimingRecord& r : last->info.timings)
            labels.add(r.label, r.totalMs, r.kernel);
    }
    row.ran = true;
    row.minMs = *std::min_element(kernelMs.begin(), kernelMs.end());
    row.medianMs = median(kernelMs);
    row.wallMedianMs = median(wallMs);
    row.unit = c.unit;
    const double ms = c.endToEnd ? row.wallMedianMs : row.medianMs;
    if (ms > 0) row.throughput = c.work / (ms * 1e-3) / c.unitScale;
    for (const TimingRecord& r : labels.records())
        row.labelsMedianMs[r.label] = r.medianMs;
    if (c.uploadBytes > 0 && (row.h2dGBps = pinnedUploadGBps(devices.front())) > 0)
        row.transferBoundMs = c.uploadBytes / (row.h2dGBps * 1e6);
    if (reference) {
        row.deviation = algorithm.compare(*last, *reference);
        row.checked = true;
        row.note = row.deviation.note;
    }
    // A run over several devices that went whole on the first says so (runOnDevices).
    if (const std::size_t at = last->info.deviceName.find("(whole on "); at != std::string::npos)
        row.note += (row.note.empty() ? "" : "; ") + last->info.deviceName.substr(at);
    return row;
}

} // namespace

std::vector<BenchRow> benchAlgorithm(const Algorithm& algorithm,
                                     const std::vector<DeviceInfo>& devices, const BenchOptions& o,
                                     const Progress& progress) {
    std::vector<std::vector<DeviceInfo>> sets;
    for (const DeviceInfo& d : devices)
        sets.push_back({d});
    return benchAlgorithm(algorithm, sets, o, progress);
}

std::vector<BenchRow> benchAlgorithm(const Algorithm& algorithm,
                                     const std::vector<std::vector<DeviceInfo>>& devices,
                                     const BenchOptions& o, const Progress& progress) {
    const std::vector<std::string> ids = chosenVariants(algorithm, o.variants);
    const auto sizes = algorithm.benchSizes();
    if (std::find(sizes.begin(), sizes.end(), o.size) == sizes.end())
        throw UsageError("bench " + algorithm.id() + ": no size '" + o.size + "'");
    const BenchCase c = [&] { // its frames straight into pinned memory for a GPU's uploads
        const auto pinned =
            pinnedInputScope(devices.empty() ? std::vector<DeviceInfo>{} : devices.front());
        return algorithm.benchCase(o.size);
    }();
    std::shared_ptr<AlgorithmResult> reference;
    if (o.check)
        reference = runAlgorithm(
            algorithm, requestFor(c, hostDevice(), algorithm.referenceVariant(), o, true));
    std::vector<BenchRow> rows;
    const double total = static_cast<double>(devices.size() * ids.size());
    for (const std::vector<DeviceInfo>& device : devices)
        for (const std::string& id : ids) {
            progress.checkCancel();
            rows.push_back(benchVariant(algorithm, c, device, id, o, reference.get()));
            progress.report(static_cast<double>(rows.size()) / total);
        }
    return rows;
}

} // namespace clscope
