// clscope-cli bench [ALGO...] [--device D]... [--size seed|large] [--repeat N] [--json OUT]
//                   [--variant V]... [--tune NAME=VALUE]... [--no-check] [--cold]
// clscope-cli bench stream [--size 16m|4m] [--threads N]... [--json OUT] (cli_bench_stream.cpp)
// Generic: runs the bench case every algorithm registered (gpu/bench.hpp) and prints a table.
#include "app/cli/bench_cold.hpp"
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "gpu/bench.hpp"
#include "gpu/runtime/devices.hpp"

#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace clscope::cli {

std::string deviationCell(const Deviation& deviation, const char* passWord) {
    char text[48];
    std::snprintf(text, sizeof text, "%.2e %s", deviation.maxDeviation,
                  deviation.pass ? passWord : "FAIL");
    return text;
}

namespace {

struct BenchArgs {
    std::vector<std::string> algorithms, devices, variants;
    std::string size = "seed", json, then, params;
    int repeat = 5, frames = 0;
    double occupancy = 0; // bench stream: photon frames of this share of non-zero pixels
    std::vector<std::string> tuning;
    std::string split = "auto";
    bool noCheck = false, file = false, cold = false;
    std::vector<int> threads;
    double kernelTimeout = 30; // seconds a user variant's kernel may run
};

std::string deviationText(const BenchRow& r) {
    return r.checked ? deviationCell(r.deviation, "ok") : "-";
}

void printTable(const std::vector<BenchRow>& rows) {
    std::printf("%-8s %-10s %-34s %-6s %10s %10s %10s %22s %14s  %s\n", "algo", "variant", "device",
                "size", "min ms", "median ms", "wall ms", "throughput", "max dev", "note");
    for (const BenchRow& r : rows) {
        if (!r.ran) {
            std::printf("%-8s %-10s %-34.34s %-6s %10s %10s %10s %22s %14s  %s\n",
                        r.algorithm.c_str(), r.variant.c_str(), r.device.c_str(), r.size.c_str(),
                        "-", "-", "-", "-", "-", r.note.c_str());
            continue;
        }
        char bound[96] = "";
        if (r.transferBoundMs > 0)
            std::snprintf(bound, sizeof bound, "%stransfer bound %.2f ms (%.1f GB/s pinned)",
                          r.note.empty() ? "" : "; ", r.transferBoundMs, r.h2dGBps);
        const std::string note = r.note + bound;
        std::printf("%-8s %-10s %-34.34s %-6s %10.3f %10.3f %10.1f %10.4g %-11s %14s  %s\n",
                    r.algorithm.c_str(), r.variant.c_str(), r.device.c_str(), r.size.c_str(),
                    r.minMs, r.medianMs, r.wallMedianMs, r.throughput, r.unit.c_str(),
                    deviationText(r).c_str(), note.c_str());
    }
}

nlohmann::json deviationJson(const BenchRow& r) {
    if (!r.checked) return nullptr;
    const Deviation& d = r.deviation;
    return {{"metric", d.metric},          {"max", d.maxDeviation}, {"tolerance", d.tolerance},
            {"compared", d.compared},      {"beyond", d.beyond},    {"first_index", d.firstIndex},
            {"first_where", d.firstWhere}, {"pass", d.pass}};
}

nlohmann::json toJson(const std::vector<BenchRow>& rows, const BenchArgs& a) {
    nlohmann::json out;
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    out["date"] = date;
    out["clscope_version"] = clscopeVersion();
    out["size"] = a.size;
    out["repeat"] = a.repeat;
    for (const BenchRow& r : rows)
        out["rows"].push_back({{"algorithm", r.algorithm},
                               {"variant", r.variant},
                               {"device", r.device},
                               {"size", r.size},
                               {"ran", r.ran},
                               {"note", r.note},
                               {"min_ms", r.minMs},
                               {"median_ms", r.medianMs},
                               {"throughput", r.throughput},
                               {"unit", r.unit},
                               {"wall_median_ms", r.wallMedianMs},
                               {"first_wall_ms", r.firstWallMs},
                               {"first_run_cache_cold_ms", r.coldFirstMs},
                               {"first_run_cache_warm_ms", r.warmFirstMs},
                               {"transfer_bound_ms", r.transferBoundMs},
                               {"h2d_pinned_gbps", r.h2dGBps},
                               {"description", r.description},
                               {"max_deviation", r.checked ? r.deviation.maxDeviation : -1.0},
                               {"deviation", deviationJson(r)},
                               {"labels_median_ms", r.labelsMedianMs}});
    return out;
}

// With several algorithms, --variant V applies to those that have V; an id no algorithm has
// is a usage error.
std::vector<std::string> knownIds(const Algorithm& algorithm,
                                  const std::vector<std::string>& wanted) {
    std::vector<std::string> out;
    for (const std::string& id : wanted) {
        bool anywhere = false;
        for (const auto& other : AlgorithmRegistry::instance().all())
            for (const VariantEntry& v : other->variants())
                anywhere |= v.info.id == id;
        if (!anywhere) throw UsageError("bench: no algorithm has a variant '" + id + "'");
        for (const VariantEntry& v : algorithm.variants())
            if (v.info.id == id) out.push_back(id);
    }
    return out;
}

void runBench(const BenchArgs& a) {
    if (a.algorithms == std::vector<std::string>{"stream"})
        return runStreamBench({a.size, a.json, a.then, a.devices.empty() ? "" : a.devices.front(),
                               a.variants.empty() ? "" : a.variants.front(), a.threads, a.frames,
                               a.occupancy, a.params, a.file});
    if (a.repeat < 1) throw UsageError("bench: --repeat must be at least 1");
    std::vector<std::vector<DeviceInfo>> devices; // an entry of several devices shares each run
    for (const std::string& spec : a.devices.empty() ? std::vector<std::string>{""} : a.devices)
        devices.push_back(resolveDevices(spec));
    const BenchOptions options{
        a.size, a.repeat, !a.noCheck, a.variants, parseTuning(a.tuning), splitRule(a.split)};
    const AlgorithmRegistry& registry = AlgorithmRegistry::instance();
    std::vector<const Algorithm*> algorithms;
    for (const std::string& id : a.algorithms.empty() ? registry.ids() : a.algorithms)
        algorithms.push_back(&registry.find(id)); // unknown names: usage error before any run
    if (!a.variants.empty() && algorithms.size() == 1)
        algorithms.front()->variant(a.variants.front());
    const auto watch = watchUserKernels(a.variants, a.kernelTimeout);
    std::vector<BenchRow> rows;
    for (const Algorithm* algorithm : algorithms) {
        BenchOptions o = options;
        if (algorithms.size() > 1) o.variants = knownIds(*algorithm, a.variants);
        if (!a.variants.empty() && o.variants.empty()) continue; // none of its variants asked for
        const auto part = benchAlgorithm(*algorithm, devices, o);
        rows.insert(rows.end(), part.begin(), part.end());
    }
    if (a.cold) measureColdRuns(rows, {a.size, a.split, a.devices, a.tuning, a.kernelTimeout});
    printTable(rows);
    printColdRuns(rows);
    if (!a.json.empty()) writeFileAtomically(a.json, toJson(rows, a).dump(2) + "\n");
}

} // namespace

void addBenchCommand(CLI::App& app, Action& action) {
    auto a = std::make_shared<BenchArgs>();
    auto* sub =
        app.add_subcommand("bench", "Time every variant (kernel time from profiling events)");
    sub->add_option(
        "ALGO", a->algorithms,
        "Algorithms (default: all with a bench case), or stream: the live input's rates");
    sub->add_option("--device", a->devices,
                    "Devices, repeatable (default: the default device); ocl:0,ocl:1 or gpus: one "
                    "run split over them");
    addSplitOption(sub, a->split);
    sub->add_option("--size", a->size, "seed or large (stream: 16m or 4m)")->capture_default_str();
    sub->add_option("--repeat", a->repeat, "Timed runs after one warm-up")->capture_default_str();
    sub->add_option("--variant", a->variants, "Only these variants, repeatable");
    sub->add_option("--tune", a->tuning,
                    "Kernel tuning NAME=VALUE (-D), repeatable, e.g. GEMM_K=32");
    sub->add_flag("--no-check", a->noCheck, "Skip the comparison with the cpu reference");
    sub->add_flag("--cold", a->cold,
                  "Also each case's first run in a fresh clscope-cli process, with the disk "
                  "cache of compiled programs off (cache cold) and on (cache warm)");
    addKernelTimeoutOption(sub, a->kernelTimeout);
    sub->add_option("--json", a->json, "Write every figure as JSON");
    sub->add_option("--threads", a->threads,
                    "bench stream: decoding threads, repeatable (default 1 and one per core but "
                    "one)");
    sub->add_option("--frames", a->frames,
                    "bench stream: frames sent (default 200 of 16m, 800 of 4m)");
    sub->add_option("--occupancy", a->occupancy,
                    "bench stream: photon frames alone, this fraction of their pixels non-zero "
                    "(e.g. 0.001: mostly zero frames, a live multi-tau's sparse path)");
    sub->add_option("--then", a->then,
                    "bench stream: also run this algorithm over the received frames (on the "
                    "first --device, its first --variant)");
    sub->add_option("--params", a->params,
                    "bench stream: --then's parameters, a JSON file or inline JSON (e.g. "
                    "{\"multitau\":true}); integer images it needs that a stream does not carry "
                    "(e.g. q-bin labels) are rings 32 pixels wide about the centre");
    sub->add_flag("--file", a->file,
                  "bench stream: also the same frames from an HDF5 file of bslz4 chunks (the "
                  "EIGER layout, written under the temporary folder): read as stored, and "
                  "through --then's algorithm as its command runs a file");
    sub->callback([&action, a] { action = [a] { runBench(*a); }; });
}

} // namespace clscope::cli
