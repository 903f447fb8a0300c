#include "gpu/lab/lab_job.hpp"

#include <limits>

#include "gpu/lab/cache_flush.hpp"
#include "gpu/lab/roofline.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/variant/user_variants.hpp"

#include <algorithm>
#include <cmath>

namespace clscope {

namespace {

struct LabCase {
    std::shared_ptr<const AlgorithmInput> input, referenceInput;
    ParamSet params;
    BenchCase bench;
};

LabCase caseOf(const Algorithm& algorithm, const LabJob& job) {
    LabCase c;
    if (job.input.empty()) {
        c.bench = algorithm.benchCase(job.size);
        c.input = c.bench.input, c.params = c.bench.params;
        c.referenceInput = c.bench.referenceInput ? c.bench.referenceInput : c.input;
        c.params.merge(job.params, "--params");
        return c;
    }
    InputSources sources;
    sources.file = job.input;
    c.params = algorithm.defaultParams();
    c.params.merge(job.params, "--params");
    c.input = c.referenceInput = algorithm.read(sources, c.params);
    return c;
}

RunRequest request(const DeviceInfo& device, const std::string& variant,
                   std::shared_ptr<const AlgorithmInput> input, const ParamSet& params,
                   const LabJob& job, const ProgramOverrides& programs) {
    RunRequest r;
    r.device = device, r.variant = variant, r.input = std::move(input), r.params = params;
    r.tuning = job.tuning, r.programs = programs;
    return r;
}

nlohmann::json deviationJson(const Deviation& d) {
    return {{"metric", d.metric},          {"max", d.maxDeviation}, {"tolerance", d.tolerance},
            {"compared", d.compared},      {"beyond", d.beyond},    {"first_index", d.firstIndex},
            {"first_where", d.firstWhere}, {"note", d.note},        {"pass", d.pass}};
}

Deviation deviationFromJson(const nlohmann::json& j) {
    Deviation d;
    // NaN travels as JSON null (a kernel that wrote nothing leaves NaN): read it back as NaN.
    const auto number = [&](const char* key) {
        const auto& v = j.at(key);
        return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
    };
    d.metric = j.at("metric"), d.maxDeviation = number("max"), d.tolerance = number("tolerance");
    d.compared = j.at("compared"), d.beyond = j.at("beyond"), d.firstIndex = j.at("first_index");
    d.firstWhere = j.at("first_where"), d.note = j.at("note"), d.pass = j.at("pass");
    return d;
}

// The recipes the job's variant builds, as its run applies them (a user variant's own program).
std::vector<ProgramFigures> figuresOf(const Algorithm& algorithm, const DeviceInfo& device,
                                      const LabJob& job) {
    ProgramOverrides overrides = job.programs;
    std::string base = job.variant;
    if (isUserVariantId(job.variant)) {
        const UserVariant user = loadUserVariant(algorithm.id(), job.variant);
        base = user.base, overrides = user.overrides();
    }
    std::vector<ProgramRecipe> recipes;
    for (const std::string& name : algorithm.variant(base).info.programs)
        recipes.push_back(algorithm.recipe(name));
    return builtProgramFigures(device, recipes, overrides, job.binaryPrefix);
}

} // namespace

std::string rowDefect(const LabRow& row) {
    if (!row.ran()) return "a row that did not run";
    const double times[] = {row.minMs, row.p20Ms, row.medianMs, row.p80Ms, row.wallMedianMs};
    for (const double t : times)
        if (!std::isfinite(t) || t <= 0) return "a time that is not a positive number";
    if (!(row.minMs <= row.p20Ms && row.p20Ms <= row.medianMs && row.medianMs <= row.p80Ms))
        return "times out of order (min, p20, median, p80)";
    if (!std::isfinite(row.throughput) || row.throughput < 0) return "an invalid throughput";
    const Deviation& d = row.deviation;
    if (!std::isfinite(d.tolerance) || d.tolerance < 0 || d.beyond > d.compared ||
        (d.pass && (d.beyond > 0 || !(d.maxDeviation <= d.tolerance))))
        return "a check whose verdict is not its figures'";
    return {};
}

int LabRow::exitCode() const {
    if (failure.empty()) return deviation.pass ? 0 : 1;
    if (failure == "usage") return 2;
    return failure == "input" ? 3 : 4;
}

nlohmann::json toJson(const LabJob& job) {
    return {{"algorithm", job.algorithm},
            {"variant", job.variant},
            {"label", job.label},
            {"device", job.device},
            {"input", job.input},
            {"size", job.size},
            {"params", job.params},
            {"tuning", job.tuning},
            {"repeat", job.repeat},
            {"tunables", job.programs.values},
            {"sources", job.programs.sources},
            {"source_sha256", job.sourceSha256},
            {"binary_prefix", job.binaryPrefix},
            {"cold_cache", job.coldCache},
            {"probe_peaks", job.probePeaks}};
}

LabJob labJobFromJson(const nlohmann::json& j) {
    LabJob job;
    job.algorithm = j.at("algorithm"), job.variant = j.at("variant"), job.label = j.at("label");
    job.device = j.at("device"), job.input = j.at("input"), job.size = j.at("size");
    job.repeat = j.at("repeat"), job.sourceSha256 = j.at("source_sha256");
    job.binaryPrefix = j.value("binary_prefix", ""), job.coldCache = j.value("cold_cache", false);
    job.probePeaks = j.value("probe_peaks", false);
    job.params = j.value("params", nlohmann::json::object());
    job.tuning = j.value("tuning", std::map<std::string, int>{});
    job.programs.values = j.at("tunables").get<TunableValues>();
    job.programs.sources = j.at("sources").get<std::map<std::string, std::string>>();
    return job;
}

nlohmann::json toJson(const LabRow& r) {
    return {{"job", toJson(r.job)},
            {"description", r.description},
            {"device", r.device},
            {"failure", r.failure},
            {"message", r.message},
            {"min_ms", r.minMs},
            {"median_ms", r.medianMs},
            {"p20_ms", r.p20Ms},
            {"p80_ms", r.p80Ms},
            {"wall_median_ms", r.wallMedianMs},
            {"throughput", r.throughput},
            {"unit", r.unit},
            {"deviation", deviationJson(r.deviation)},
            {"labels_median_ms", r.labelsMedianMs},
            {"programs", programsJson(r.programs)},
            {"cold_cache_bytes", r.coldCacheBytes},
            {"work", toJson(r.work)},
            {"peaks", toJson(r.peaks)}};
}

LabRow labRowFromJson(const nlohmann::json& j) {
    LabRow r;
    r.job = labJobFromJson(j.at("job"));
    r.description = j.at("description"), r.device = j.at("device");
    r.failure = j.at("failure"), r.message = j.at("message");
    r.minMs = j.at("min_ms"), r.medianMs = j.at("median_ms"), r.p20Ms = j.at("p20_ms");
    r.p80Ms = j.at("p80_ms"), r.wallMedianMs = j.at("wall_median_ms");
    r.throughput = j.at("throughput"), r.unit = j.at("unit");
    r.deviation = deviationFromJson(j.at("deviation"));
    r.labelsMedianMs = j.at("labels_median_ms").get<std::map<std::string, double>>();
    r.coldCacheBytes = j.value("cold_cache_bytes", std::uint64_t(0));
    r.work = runWorkFromJson(j.value("work", nlohmann::json::object()));
    r.peaks = devicePeaksFromJson(j.value("peaks", nlohmann::json::object()));
    for (const nlohmann::json& p : j.value("programs", nlohmann::json::array()))
        r.programs.push_back(programFiguresFromJson(p));
    return r;
}

double percentile(std::vector<double> values, double fraction) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const double at = fraction * double(values.size() - 1);
    const std::size_t low = static_cast<std::size_t>(std::floor(at));
    const std::size_t high = std::min(low + 1, values.size() - 1);
    return values[low] + (at - double(low)) * (values[high] - values[low]);
}

TunableValues hostTunablesOf(const LabJob& job) {
    const Algorithm& algorithm = AlgorithmRegistry::instance().find(job.algorithm);
    const DeviceInfo device = resolveDevices(job.device).front();
    const LabCase c = caseOf(algorithm, job);
    return algorithm.hostTunables(builtInVariantOf(job.algorithm, job.variant), device, *c.input,
                                  c.params);
}

LabRow runLabJob(const LabJob& job, const std::function<void(const std::string&)>& phase) {
    const Algorithm& algorithm = AlgorithmRegistry::instance().find(job.algorithm);
    const DeviceInfo device = resolveDevices(job.device).front();
    LabRow row;
    row.job = job, row.device = device.spec + " (" + device.name + ")";
    const LabCase c = caseOf(algorithm, job);
    row.description = c.input->describe();
    phase("reference");
    const auto reference =
        runAlgorithm(algorithm, request(hostDevice(), algorithm.referenceVariant(),
                                        c.referenceInput, c.params, job, {}));
    const RunRequest run = request(device, job.variant, c.input, c.params, job, job.programs);
    if (const std::string verbose = verboseBuildOption(device); !verbose.empty())
        ClDevice::get(device)->appendBuildOptions(verbose);
    std::vector<double> kernelMs, wallMs;
    TimingStats labels;
    std::shared_ptr<AlgorithmResult> last;
    std::unique_ptr<CacheFlush> cold;
    if (job.coldCache) cold = std::make_unique<CacheFlush>(device);
    row.coldCacheBytes = cold ? cold->bytes() : 0;
    for (int n = 0; n <= job.repeat; ++n) {
        if (cold && n > 0) cold->flush();
        phase(n == 0 ? "warm-up (build included)" : "run " + std::to_string(n));
        last = runAlgorithm(algorithm, run);
        if (n == 0) continue;
        kernelMs.push_back(last->info.kernelMs), wallMs.push_back(last->info.wallMs);
        for (const TimingRecord& r : last->info.timings)
            labels.add(r.label, r.totalMs, r.kernel);
    }
    row.minMs = *std::min_element(kernelMs.begin(), kernelMs.end());
    row.medianMs = median(kernelMs), row.wallMedianMs = median(wallMs);
    row.p20Ms = percentile(kernelMs, 0.2), row.p80Ms = percentile(kernelMs, 0.8);
    for (const TimingRecord& r : labels.records())
        row.labelsMedianMs[r.label] = r.medianMs;
    if (job.input.empty() && row.medianMs > 0) {
        const double ms = c.bench.endToEnd ? row.wallMedianMs : row.medianMs;
        row.throughput = c.bench.work / (ms * 1e-3) / c.bench.unitScale, row.unit = c.bench.unit;
    }
    row.programs = figuresOf(algorithm, device, job); // before the probes build theirs
    row.work = algorithm.work(*c.input, c.params);
    phase(job.probePeaks ? "probing the device's peaks" : "the device's peaks");
    row.peaks = devicePeaks(device, job.probePeaks);
    phase("check");
    row.deviation = algorithm.compare(*last, *reference);
    return row;
}

} // namespace clscope
