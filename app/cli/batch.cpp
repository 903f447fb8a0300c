#include "app/cli/batch.hpp"

#include "app/cli/child_process.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/json_parse.hpp"
#include "core/output_check.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/devices.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace clscope::cli {

namespace {

std::optional<long> envNumber(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return std::nullopt;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*end) throw UsageError(std::string(name) + "=" + v + ": expected an integer");
    return n;
}

std::string hostName() {
    char name[256] = "";
    gethostname(name, sizeof name - 1);
    return name;
}

std::string deviceOf(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--device") return args[i + 1];
    const char* env = std::getenv("CLSCOPE_DEVICE");
    return env ? env : "default";
}

// Why a line may not run ("" when it may): a nested batch (it could run this manifest again),
// an argument holding a NUL (it would be cut there), an output that is the manifest or the
// report (it would replace them).
std::string refusal(const std::vector<std::string>& args, const std::optional<std::string>& output,
                    const BatchOptions& o) {
    if (args.front() == "batch") return "a manifest line may not run batch";
    for (const std::string& a : args)
        if (a.find('\0') != std::string::npos) return "an argument holds a NUL character";
    for (const auto& [option, file] :
         {std::pair{"the manifest", &o.manifest}, std::pair{"the report", &o.report}})
        if (output && !file->empty() && sameFile(*output, *file))
            return "the output " + *output + " is " + option + " of this batch";
    return {};
}

// One manifest line: run it (or skip it) and say what happened.
nlohmann::json runLine(std::size_t index, const std::string& text, const BatchOptions& o,
                       const Shard& shard, const std::string& self) {
    nlohmann::json entry{
        {"line", index},
        {"host", hostName()},
        {"shard", std::to_string(shard.index) + "/" + std::to_string(shard.count)}};
    const nlohmann::json args = parseJsonQuietly(text);
    if (args.is_discarded() || !args.is_array() || args.empty() ||
        !std::all_of(args.begin(), args.end(), [](const auto& a) { return a.is_string(); })) {
        entry["status"] = "failed", entry["exit_code"] = int(ExitUsage);
        entry["error"] = "not a JSON array of argument strings";
        return entry;
    }
    const auto list = args.get<std::vector<std::string>>();
    entry["args"] = list, entry["device"] = deviceOf(list);
    const auto output = outputOf(list);
    if (const std::string refused = refusal(list, output, o); !refused.empty()) {
        entry["status"] = "failed", entry["exit_code"] = int(ExitUsage), entry["error"] = refused;
        return entry;
    }
    if (o.resume && output && outputComplete(*output, list)) {
        entry["status"] = "skipped", entry["exit_code"] = 0, entry["seconds"] = 0.0;
        return entry;
    }
    const auto start = std::chrono::steady_clock::now();
    const int code = runChild(self, list);
    entry["seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    entry["exit_code"] = code, entry["status"] = code == 0 ? "ok" : "failed";
    return entry;
}

// Several ranks or tasks on one node each take their own GPU: with no CLSCOPE_DEVICE and no
// CUDA_VISIBLE_DEVICES (which the scheduler may set instead), local rank K gets GPU K mod count.
void assignLocalGpu() {
    if (std::getenv("CLSCOPE_DEVICE") || std::getenv("CUDA_VISIBLE_DEVICES")) return;
    std::optional<long> local = envNumber("SLURM_LOCALID");
    if (!local) local = envNumber("OMPI_COMM_WORLD_LOCAL_RANK");
    if (!local) return;
    std::vector<std::string> gpus;
    for (const DeviceInfo& d : openclDevices())
        if (d.type == "GPU") gpus.push_back(d.spec);
    if (gpus.empty()) return;
    const std::string spec = gpus[static_cast<std::size_t>(*local) % gpus.size()];
    setenv("CLSCOPE_DEVICE", spec.c_str(), 1);
    std::cerr << "batch: local rank " << *local << " uses " << spec << "\n";
}

} // namespace

Shard parseShard(const std::string& text) {
    const std::size_t slash = text.find('/');
    try {
        if (slash != std::string::npos) {
            std::size_t a = 0, b = 0;
            const Shard s{std::stol(text.substr(0, slash), &a),
                          std::stol(text.substr(slash + 1), &b)};
            if (a == slash && b == text.size() - slash - 1 && s.count > 0 && s.index >= 0 &&
                s.index < s.count)
                return s;
        }
    } catch (const std::exception&) {
    }
    throw UsageError("--shard " + text + ": expected I/N with 0 <= I < N");
}

Shard currentShard(const BatchOptions& o) {
    if (!o.shard.empty()) return parseShard(o.shard);
    if (o.mpi) {
        for (auto [rank, size] : {std::pair{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                  std::pair{"PMI_RANK", "PMI_SIZE"}})
            if (envNumber(rank) && envNumber(size))
                return parseShard(std::to_string(*envNumber(rank)) + "/" +
                                  std::to_string(*envNumber(size)));
        throw UsageError(
            "--mpi: no MPI rank found (run under mpirun: OMPI_COMM_WORLD_RANK or PMI_RANK unset)");
    }
    const auto task = envNumber("SLURM_ARRAY_TASK_ID"), count = envNumber("SLURM_ARRAY_TASK_COUNT");
    if (task && count) {
        const long min = envNumber("SLURM_ARRAY_TASK_MIN").value_or(0);
        return parseShard(std::to_string(*task - min) + "/" + std::to_string(*count));
    }
    return {};
}

std::optional<std::string> outputOf(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if ((a == "-o" || a == "--output") && i + 1 < args.size()) return args[i + 1];
        if (a.rfind("--output=", 0) == 0) return a.substr(9);
        if (a.size() > 2 && a.rfind("-o", 0) == 0) return a.substr(2);
    }
    return std::nullopt;
}

namespace {

// The dataset a complete output of `generate KIND` holds; none for an unknown kind.
std::optional<std::string> generatedObject(const std::string& kind) {
    for (const auto& [algorithm, each] : AlgorithmRegistry::instance().syntheticKinds())
        if (each.name == kind) return each.object;
    return std::nullopt;
}

// An algorithm command's output: its group with clscope's provenance, at least one dataset,
// and the parameters' input is the line's input file.
bool algorithmOutputComplete(const H5Reader& reader, const Algorithm& algorithm,
                             const std::vector<std::string>& args) {
    const std::string group = algorithm.outputGroup();
    if (!reader.hasObject(group)) return false;
    const std::vector<H5Node> parent = reader.children("/");
    const auto node = std::find_if(parent.begin(), parent.end(),
                                   [&](const H5Node& n) { return n.path == group; });
    if (node == parent.end() || !node->attributes.count("clscope_version") ||
        !node->attributes.count("parameters"))
        return false;
    const auto children = reader.children(group);
    if (std::none_of(children.begin(), children.end(),
                     [](const H5Node& n) { return n.kind == H5Node::Dataset; }))
        return false;
    const auto parameters = parseJsonQuietly(node->attributes.at("parameters"));
    const auto input =
        parameters.is_object() ? parameters.value("input", nlohmann::json()) : nlohmann::json();
    const std::string file = input.is_object() ? input.value("file", "") : "";
    return args.size() > 1 && !file.empty() && sameFile(file, args[1]);
}

} // namespace

bool outputComplete(const std::string& file, const std::vector<std::string>& args) {
    if (access(file.c_str(), R_OK) != 0 || args.empty()) return false;
    try {
        const H5Reader reader(file);
        if (args[0] == "generate") {
            const auto object = args.size() > 1 ? generatedObject(args[1]) : std::nullopt;
            return object && reader.hasObject(*object);
        }
        for (const auto& algorithm : AlgorithmRegistry::instance().all())
            if (algorithm->command() == args[0])
                return algorithmOutputComplete(reader, *algorithm, args);
        return false;
    } catch (const std::exception&) {
        return false;
    }
}

std::size_t runBatch(const BatchOptions& o, const std::string& self) {
    struct stat st {};
    if (::stat(o.manifest.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw InputError(o.manifest + ": the manifest is not a regular file (a folder, FIFO, "
                                      "socket or device)");
    if (!o.report.empty() && sameFile(o.report, o.manifest))
        throw UsageError("--report " + o.report +
                         " is the manifest: the report would be read back as lines");
    if (!o.report.empty()) checkOutputFile("--report", o.report);
    std::ifstream in(o.manifest);
    if (!in) throw InputError(o.manifest + ": cannot open the manifest");
    const Shard shard = currentShard(o);
    assignLocalGpu();
    std::ofstream report;
    if (!o.report.empty()) {
        report.open(o.report, std::ios::app);
        if (!report) throw InputError(o.report + ": cannot write the report");
    }
    std::size_t index = 0, ran = 0, failed = 0, skipped = 0;
    for (std::string line; std::getline(in, line); ++index) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (static_cast<long>(index % static_cast<std::size_t>(shard.count)) != shard.index)
            continue;
        const nlohmann::json entry = runLine(index, line, o, shard, self);
        ++ran, failed += entry["status"] == "failed", skipped += entry["status"] == "skipped";
        if (report.is_open()) report << entry.dump() << "\n" << std::flush;
        std::cerr << "batch line " << index << ": " << entry["status"].get<std::string>()
                  << " (exit " << entry["exit_code"] << ")\n";
    }
    std::cout << "batch " << o.manifest << " shard " << shard.index << "/" << shard.count << ": "
              << ran << " lines, " << ran - failed - skipped << " ok, " << skipped << " skipped, "
              << failed << " failed\n";
    return failed;
}

} // namespace clscope::cli
