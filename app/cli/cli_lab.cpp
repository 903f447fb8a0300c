// clscope-cli lab ALGO --from VARIANT --print-source [--program NAME]
// clscope-cli lab ALGO --from VARIANT [--program NAME] [--source FILE.cl] [--set NAME=VALUE]...
//     [--sweep NAME=V1,V2,...] [IN.h5 | --size seed|large] [--params P] [--tune NAME=VALUE]...
//     [--device D] [--repeat N]
//     [--kernel-timeout S] [--cold-cache] [--no-cache] [--probe-peaks] [--json OUT]
//     [--binary DIR] [--save NAME]
// The kernel lab (DESIGN.md §4): a fork of a variant's program, built, run by the variant's
// host code, checked against the reference and timed beside the variant it came from. Each
// row runs in a worker process (`lab-worker JOB`, hidden) that the lab kills when it stays
// silent for --kernel-timeout seconds. Generic: the algorithm's declarations say everything.
#include "app/cli/cli_lab.hpp"
#include "app/cli/cli_options.hpp"
#include "app/cli/lab_report.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/json_parse.hpp"
#include "gpu/lab/contained.hpp"
#include "gpu/lab/lab_plan.hpp"
#include "gpu/lab/lab_store.hpp"
#include "gpu/lab/roofline.hpp"
#include "gpu/lab/sweep_cache.hpp"
#include "gpu/runtime/devices.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace clscope::cli {

namespace {

struct LabArgs {
    LabOptions options;
    std::vector<std::string> tuning; // --tune NAME=VALUE
    std::string json, binary;
    bool printSource = false, probePeaks = false;
};

// The job in a temporary file for the worker; removed when this goes.
class JobFile {
  public:
    explicit JobFile(const LabJob& job) {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/clscope-lab-XXXXXX";
        const int fd = mkstemp(pattern.data());
        if (fd < 0) throw DeviceError("lab: cannot write the worker's job to " + pattern);
        close(fd);
        path_ = pattern;
        writeFileAtomically(path_, jsonText(toJson(job)));
    }
    ~JobFile() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    JobFile(const JobFile&) = delete;
    JobFile& operator=(const JobFile&) = delete;
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

// The row of a job run in the worker, or why there is none.
LabRow runRow(const LabJob& job, double timeout) {
    const JobFile file(job);
    const ContainedRun run = runContained({"lab-worker", file.path()}, timeout);
    std::string phase = "starting";
    for (const std::string& line : run.lines) {
        if (line.rfind("row ", 0) == 0) {
            LabRow row = labRowFromJson(parseJson(line.substr(4), "the lab worker's row"));
            row.job = job; // its sources as given: the worker's JSON has U+FFFD for bad bytes
            row.workerErrors = run.errorOutput;
            return row;
        }
        if (line.rfind("phase ", 0) == 0) phase = line.substr(6);
    }
    LabRow row;
    row.job = job, row.workerErrors = run.errorOutput;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout);
    if (run.timedOut) {
        row.failure = "timeout";
        row.message = "the kernel did not finish in " + std::string(seconds) + " s (" + phase + ")";
    } else {
        row.failure = "crash";
        row.message = run.signal
                          ? "the device process died: " + run.signalName() + " (" + phase + ")"
                          : "the device process ended without a result (exit code " +
                                std::to_string(run.exitCode) + ", " + phase + ")";
    }
    return row;
}

// A sweep row from the sweep cache when it was measured before, else run and kept there.
LabRow cachedRow(const LabJob& job, double timeout) {
    std::optional<DeviceInfo> device;
    try {
        device = resolveDevices(job.device).front();
    } catch (const std::exception&) { // the worker says why
        return runRow(job, timeout);
    }
    const SweepCache cache(SweepCache::defaultFolder());
    const std::string key = SweepCache::keyOf(job, *device);
    if (auto row = cache.find(key, job)) {
        row->cached = true;
        if (auto peaks = PeaksCache(PeaksCache::defaultFile()).find(*device)) row->peaks = *peaks;
        return *row;
    }
    LabRow row = runRow(job, timeout);
    cache.store(key, row);
    return row;
}

// A row's prefix for its compiled outputs in --binary DIR: DIR/N-LABEL- (N its place).
std::string binaryPrefix(const std::string& dir, std::size_t index, const std::string& label) {
    std::string name = label;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_')
            c = '_';
    return (std::filesystem::path(dir) / (std::to_string(index) + "-" + name + "-")).string();
}

// The host's tunable values where some row built nothing (its tunables then say what it would
// have been built with, as --print-source does, not the declared defaults); {} when every row
// built or they cannot be had (e.g. the input the rows failed on).
TunableValues hostValuesForUnbuilt(const LabPlan& plan, const std::vector<LabRow>& rows) {
    if (std::all_of(rows.begin(), rows.end(), [](const LabRow& r) { return !r.programs.empty(); }))
        return {};
    try {
        return hostTunablesOf(plan.jobs().front());
    } catch (const std::exception&) {
        return {};
    }
}

nlohmann::json rowJson(const LabPlan& plan, const LabRow& r, const std::string& size,
                       const TunableValues& host) {
    const Deviation& d = r.deviation;
    return {{"algorithm", r.job.algorithm},
            {"variant", r.job.variant},
            {"label", r.job.label},
            {"device", r.device},
            {"size", r.job.input.empty() ? size : ""},
            {"input", r.job.input},
            {"params", r.job.params},
            {"tuning", r.job.tuning},
            {"ran", r.ran()},
            {"note", r.ran() ? d.note : r.failure + ": " + r.message},
            {"min_ms", r.minMs},
            {"median_ms", r.medianMs},
            {"p20_ms", r.p20Ms},
            {"p80_ms", r.p80Ms},
            {"throughput", r.throughput},
            {"unit", r.unit},
            {"wall_median_ms", r.wallMedianMs},
            {"description", r.description},
            {"check", r.ran() ? (d.pass ? "pass" : "fail") : "not run"},
            {"max_deviation", r.ran() ? d.maxDeviation : -1.0},
            {"deviation", r.ran() ? nlohmann::json{{"metric", d.metric},
                                                   {"max", d.maxDeviation},
                                                   {"tolerance", d.tolerance},
                                                   {"compared", d.compared},
                                                   {"beyond", d.beyond},
                                                   {"first_index", d.firstIndex},
                                                   {"first_where", d.firstWhere},
                                                   {"pass", d.pass}}
                                  : nlohmann::json(nullptr)},
            {"labels_median_ms", r.labelsMedianMs},
            {"tunables", builtTunables(plan.tunablesOf(r.job, host), r.programs)},
            {"source_sha256", r.job.sourceSha256},
            {"programs", programsJson(r.programs)},
            {"cold_cache_bytes", r.coldCacheBytes},
            {"roofline",
             r.ran() ? toJson(rooflineOf(r.work, r.medianMs, r.peaks)) : nlohmann::json(nullptr)},
            {"cached", r.cached}};
}

void writeJson(const LabPlan& plan, const std::vector<LabRow>& rows, const LabArgs& a) {
    nlohmann::json out;
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    out["date"] = date, out["clscope_version"] = clscopeVersion();
    out["algorithm"] = a.options.algorithm, out["from"] = a.options.from;
    out["size"] = a.options.size, out["repeat"] = a.options.repeat;
    out["rows"] = nlohmann::json::array();
    const TunableValues host = hostValuesForUnbuilt(plan, rows);
    for (const LabRow& r : rows)
        out["rows"].push_back(rowJson(plan, r, a.options.size, host));
    writeFileAtomically(a.json, jsonText(out, 2) + "\n");
}

// --save: the fastest fork row that passed its check.
void save(const LabPlan& plan, const std::vector<LabRow>& rows, const std::string& name) {
    const LabRow* best = nullptr;
    for (std::size_t i = 1; i < rows.size(); ++i)
        if (rows[i].ran() && rows[i].deviation.pass && (!best || rows[i].medianMs < best->medianMs))
            best = &rows[i];
    if (!best) {
        std::cerr << "clscope-cli: lab: not saved as user:" << name
                  << ": no row of the fork passed its check\n";
        return;
    }
    const auto path = saveUserVariant(plan.toSave(best->job));
    std::printf("saved %s as user:%s (%s)\n", best->job.label.c_str(), name.c_str(),
                path.string().c_str());
}

void runLab(LabArgs a) {
    const Algorithm& algorithm = AlgorithmRegistry::instance().find(a.options.algorithm);
    a.options.tuning = parseTuning(a.tuning);
    const LabPlan plan(algorithm, a.options);
    if (a.printSource) {
        std::fputs(plan.printSource(hostTunablesOf(plan.jobs().front())).c_str(), stdout);
        return;
    }
    if (!a.binary.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(a.binary, ec);
        if (ec) throw InputError("lab: cannot make the folder " + a.binary + ": " + ec.message());
    }
    std::vector<LabRow> rows;
    for (LabJob job : plan.jobs()) {
        job.probePeaks = a.probePeaks && rows.empty(); // once: every row is on one device
        if (!a.binary.empty()) job.binaryPrefix = binaryPrefix(a.binary, rows.size(), job.label);
        const bool sweepRow = !rows.empty() && !a.options.sweep.empty() && !a.options.noCache;
        rows.push_back(sweepRow ? cachedRow(job, a.options.kernelTimeout)
                                : runRow(job, a.options.kernelTimeout));
        keepInLabStore(job.sourceSha256, ".cl", plan.sourceOf(job)); // for lab-diff
    }
    printLabReport(plan, rows, a.options.coldCache);
    if (!a.json.empty()) writeJson(plan, rows, a);
    if (!a.options.save.empty()) save(plan, rows, a.options.save);
    int code = 0;
    for (const LabRow& r : rows)
        code = std::max(code, r.exitCode());
    if (code != 0) throw CommandExit{code};
}

} // namespace

void addLabCommand(CLI::App& app, Action& action) {
    auto a = std::make_shared<LabArgs>();
    LabOptions& o = a->options;
    auto* sub = app.add_subcommand(
        "lab", "Fork a variant's program: build, check against the reference and time it");
    sub->add_option("ALGO", o.algorithm, "The algorithm")->required();
    sub->add_option("input", o.input, "Input HDF5 file (default: the bench case of --size)");
    sub->add_option("--from", o.from, "The variant forked (a built-in one or user:NAME)")
        ->required()
        ->check(nonEmpty());
    sub->add_option("--program", o.program,
                    "The program forked when the variant builds several (default: its only one; "
                    "--print-source: all)")
        ->check(nonEmpty());
    sub->add_flag("--print-source", a->printSource,
                  "Print the program as built, one '// tunable' line per tunable");
    sub->add_option("--source", o.sourceFile, "The program text to build instead (a .cl file)")
        ->check(nonEmpty());
    sub->add_option("--set", o.sets, "Tunable NAME=VALUE, repeatable (wins over the file's)")
        ->check(nonEmpty());
    sub->add_option("--sweep", o.sweep, "NAME=V1,V2,...: one checked and timed row per value")
        ->check(nonEmpty());
    auto* size = sub->add_option("--size", o.size, "The bench case: seed or large");
    size->excludes(sub->get_option("input"));
    sub->add_option("--device", o.device, "cpu, ocl:N or ocl:TEXT (default: first GPU)");
    sub->add_option("--params", o.params,
                    "The run's parameters over the input's defaults or the bench case's: a JSON "
                    "file, inline JSON or an output's `parameters` (every row)")
        ->check(nonEmpty());
    sub->add_option("--tune", a->tuning,
                    "Kernel tuning NAME=VALUE (-D), repeatable, for every row (e.g. "
                    "MMA_EMULATE=1)");
    sub->add_option("--repeat", o.repeat, "Timed runs after one warm-up (default 5)");
    sub->add_option("--kernel-timeout", o.kernelTimeout,
                    "Seconds a run may take before it is stopped (default 30)");
    sub->add_flag("--cold-cache", o.coldCache,
                  "Write a scratch buffer of the device's cache size before each timed run");
    sub->add_flag("--no-cache", o.noCache,
                  "Measure every sweep value again (default: values measured before on this "
                  "device with this program come from the sweep cache)");
    sub->add_flag("--probe-peaks", a->probePeaks,
                  "Measure the device's peaks for the roofline again (default: the kept ones, "
                  "measured once per device)");
    sub->add_option("--json", a->json, "Write the rows as JSON")->check(nonEmpty());
    sub->add_option("--binary", a->binary,
                    "Write each row's compiled programs (CL_PROGRAM_BINARIES: PTX on NVIDIA) to "
                    "this folder, as N-ROW-PROGRAM.ptx|.txt|.bin")
        ->check(nonEmpty());
    sub->add_option("--save", o.save,
                    "Save the fork (its fastest passing row) as the user variant user:NAME")
        ->check(nonEmpty());
    sub->callback([&action, a] { action = [a] { runLab(*a); }; });
    addLabWorkerCommand(app, action);
    addLabDiffCommand(app, action);
}

} // namespace clscope::cli
