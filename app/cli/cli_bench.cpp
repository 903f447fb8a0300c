// clscope-cli bench [ALGO...] [--device D]... [--size seed|large] [--repeat N] [--json OUT]
//                   [--variant V]... [--tune NAME=VALUE]... [--no-check]
// Generic: runs the bench case every algorithm registered (gpu/bench.hpp) and prints a table.
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "gpu/bench.hpp"
#include "gpu/devices.hpp"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace clscope::cli {

namespace {

struct BenchArgs {
    std::vector<std::string> algorithms, devices, variants;
    std::string size = "seed", json;
    int repeat = 5;
    std::vector<std::string> tuning;
    bool noCheck = false;
};

// NAME=VALUE pairs of --tune.
std::map<std::string, int> parseTuning(const std::vector<std::string>& pairs) {
    std::map<std::string, int> out;
    for (const std::string& p : pairs) {
        const std::size_t eq = p.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError("--tune takes NAME=VALUE, not '" + p + "'");
        try {
            out[p.substr(0, eq)] = std::stoi(p.substr(eq + 1));
        } catch (const std::exception&) {
            throw UsageError("--tune " + p + ": the value must be an integer");
        }
    }
    return out;
}

void printTable(const std::vector<BenchRow>& rows) {
    std::printf("%-8s %-9s %-34s %-6s %10s %10s %16s %10s  %s\n", "algo", "variant", "device", "size",
                "min ms", "median ms", "throughput", "max dev", "note");
    for (const BenchRow& r : rows) {
        if (!r.ran) {
            std::printf("%-8s %-9s %-34.34s %-6s %10s %10s %16s %10s  %s\n", r.algorithm.c_str(),
                        r.variant.c_str(), r.device.c_str(), r.size.c_str(), "-", "-", "-", "-", r.note.c_str());
            continue;
        }
        char dev[32] = "-";
        if (r.maxDeviation >= 0) std::snprintf(dev, sizeof dev, "%.2e", r.maxDeviation);
        std::printf("%-8s %-9s %-34.34s %-6s %10.3f %10.3f %8.0f %-7s %10s  %s\n", r.algorithm.c_str(),
                    r.variant.c_str(), r.device.c_str(), r.size.c_str(), r.minMs, r.medianMs,
                    r.throughput, r.unit.c_str(), dev, r.note.c_str());
    }
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
        out["rows"].push_back({{"algorithm", r.algorithm}, {"variant", r.variant}, {"device", r.device},
                               {"size", r.size}, {"ran", r.ran}, {"note", r.note}, {"min_ms", r.minMs},
                               {"median_ms", r.medianMs}, {"throughput", r.throughput}, {"unit", r.unit},
                               {"max_deviation", r.maxDeviation}, {"labels_median_ms", r.labelsMedianMs}});
    return out;
}

void runBench(const BenchArgs& a) {
    if (a.repeat < 1) throw UsageError("bench: --repeat must be at least 1");
    std::vector<DeviceInfo> devices;
    for (const std::string& spec : a.devices.empty() ? std::vector<std::string>{""} : a.devices)
        devices.push_back(resolveDevice(spec));
    const BenchOptions options{a.size, a.repeat, !a.noCheck, a.variants, parseTuning(a.tuning)};
    std::vector<BenchRow> rows;
    for (const std::string& algo : a.algorithms.empty() ? BenchRegistry::instance().algorithms() : a.algorithms) {
        const auto part = BenchRegistry::instance().find(algo)(devices, options);
        rows.insert(rows.end(), part.begin(), part.end());
    }
    printTable(rows);
    if (!a.json.empty()) {
        std::ofstream out(a.json);
        if (!(out << toJson(rows, a).dump(2) << "\n")) throw InputError("bench: cannot write " + a.json);
    }
}

} // namespace

void addBenchCommand(CLI::App& app, Action& action) {
    auto a = std::make_shared<BenchArgs>();
    auto* sub = app.add_subcommand("bench", "Time every variant (kernel time from profiling events)");
    sub->add_option("ALGO", a->algorithms, "Algorithms (default: all with a bench case)");
    sub->add_option("--device", a->devices, "Devices, repeatable (default: the default device)");
    sub->add_option("--size", a->size, "seed or large")->capture_default_str();
    sub->add_option("--repeat", a->repeat, "Timed runs after one warm-up")->capture_default_str();
    sub->add_option("--variant", a->variants, "Only these variants, repeatable");
    sub->add_option("--tune", a->tuning, "Kernel tuning NAME=VALUE (-D), repeatable, e.g. GEMM_K=32");
    sub->add_flag("--no-check", a->noCheck, "Skip the comparison with the cpu reference");
    sub->add_option("--json", a->json, "Write every figure as JSON");
    sub->callback([&action, a] { action = [a] { runBench(*a); }; });
}

} // namespace clscope::cli
