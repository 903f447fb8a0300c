#include "app/cli/bench_cold.hpp"

#include "app/cli/child_process.hpp"
#include "core/atomic_file.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
#include <unistd.h>

namespace clscope::cli {

namespace {

using RowKey = std::tuple<std::string, std::string, std::string>; // algorithm, variant, device

std::vector<std::string> childArgs(const std::string& algorithm,
                                   const std::vector<std::string>& variants, const ColdBenchArgs& a,
                                   const std::string& json) {
    std::vector<std::string> args{"bench",
                                  algorithm,
                                  "--size",
                                  a.size,
                                  "--repeat",
                                  "1",
                                  "--no-check",
                                  "--json",
                                  json,
                                  "--split",
                                  a.split,
                                  "--kernel-timeout",
                                  std::to_string(a.kernelTimeout)};
    for (const auto& [option, values] :
         {std::pair{"--device", &a.devices}, {"--variant", &variants}, {"--tune", &a.tuning}})
        for (const std::string& v : *values)
            args.insert(args.end(), {option, v});
    return args;
}

// The first runs' walls of one child bench by row; empty (said on stderr) when it failed.
std::map<RowKey, double> childFirstRuns(const std::vector<std::string>& args,
                                        const std::string& json, bool cacheOn) {
    const int code = runChild(
        selfPath(), args, {{std::string("CLSCOPE_PROGRAM_CACHE=") + (cacheOn ? "1" : "0")}, true});
    std::map<RowKey, double> out;
    try {
        if (code != 0) throw std::runtime_error("exit code " + std::to_string(code));
        const auto report = nlohmann::json::parse(readWholeFile(json));
        for (const auto& r : report.at("rows"))
            if (r.at("ran").get<bool>())
                out[{r.at("algorithm"), r.at("variant"), r.at("device")}] = r.at("first_wall_ms");
    } catch (const std::exception& e) {
        std::cerr << "bench --cold: the fresh process of " << args[1] << " failed (" << e.what()
                  << ")\n";
    }
    std::error_code ignored;
    std::filesystem::remove(json, ignored);
    return out;
}

} // namespace

void measureColdRuns(std::vector<BenchRow>& rows, const ColdBenchArgs& a) {
    std::map<std::string, std::vector<std::string>> variants; // the rows' that ran, by algorithm
    for (const BenchRow& r : rows)
        if (r.ran) variants[r.algorithm].push_back(r.variant);
    const std::string json = (std::filesystem::temp_directory_path() /
                              ("clscope-bench-cold-" + std::to_string(getpid()) + ".json"))
                                 .string();
    for (const auto& [algorithm, ids] : variants) {
        const auto args = childArgs(algorithm, ids, a, json);
        const auto cold = childFirstRuns(args, json, false),
                   warm = childFirstRuns(args, json, true);
        for (BenchRow& r : rows) {
            const RowKey key{r.algorithm, r.variant, r.device};
            if (const auto c = cold.find(key); c != cold.end()) r.coldFirstMs = c->second;
            if (const auto w = warm.find(key); w != warm.end()) r.warmFirstMs = w->second;
        }
    }
}

void printColdRuns(const std::vector<BenchRow>& rows) {
    for (const BenchRow& r : rows)
        if (r.coldFirstMs > 0 || r.warmFirstMs > 0)
            std::printf("%-8s %-10s %-34.34s first run, fresh process: %.1f ms (cache cold) / "
                        "%.1f ms (cache warm); warm median %.1f ms\n",
                        r.algorithm.c_str(), r.variant.c_str(), r.device.c_str(), r.coldFirstMs,
                        r.warmFirstMs, r.wallMedianMs);
}

} // namespace clscope::cli
