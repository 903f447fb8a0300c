#include "gpu/lab/sweep_cache.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/json_parse.hpp"
#include "core/sha256.hpp"
#include "gpu/variant/user_variants.hpp"

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace clscope {

namespace {

// An input file by path, size and modification time (a changed file is another input).
nlohmann::json inputKey(const std::string& input) {
    if (input.empty()) return nullptr;
    std::error_code ec;
    const auto size = fs::file_size(input, ec);
    const auto time = fs::last_write_time(input, ec).time_since_epoch().count();
    return {{"path", fs::absolute(input, ec).string()}, {"bytes", size}, {"time", time}};
}

std::string fileText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A compiled output's name after the job's binary prefix, e.g. "rbf_tiled.bin".
std::string suffixOf(const std::string& file, const std::string& prefix) {
    return file.rfind(prefix, 0) == 0 ? file.substr(prefix.size())
                                      : fs::path(file).filename().string();
}

} // namespace

SweepCache::SweepCache(fs::path folder) : folder_(std::move(folder)) {}

fs::path SweepCache::defaultFolder() {
    return userVariantsRoot() / "lab_cache";
}

std::string SweepCache::keyOf(const LabJob& job, const DeviceInfo& device) {
    const nlohmann::json key{{"algorithm", job.algorithm},
                             {"variant", job.variant},
                             {"source_sha256", job.sourceSha256},
                             {"tunables", job.programs.values},
                             {"device", device.key()},
                             {"input", inputKey(job.input)},
                             {"size", job.input.empty() ? job.size : ""},
                             {"params", job.params},
                             {"tuning", job.tuning},
                             {"repeat", job.repeat},
                             {"cold_cache", job.coldCache},
                             {"clscope", clscopeVersion()}};
    return sha256Hex(jsonText(key));
}

namespace {

// The row kept in `file`, or none (said on stderr) when it is not a row clscope kept.
std::optional<LabRow> keptRow(const fs::path& file) {
    std::string defect;
    LabRow row;
    try {
        const auto parsed = parseJson(fileText(file), file.string());
        if (!parsed.is_object()) throw InputError("not a JSON object");
        row = labRowFromJson(parsed);
        defect = rowDefect(row);
    } catch (const std::exception& e) {
        defect = e.what();
    }
    if (defect.empty()) return row;
    warnDiscarded(file.string() + ": a sweep cache row with " + defect);
    return std::nullopt;
}

} // namespace

std::optional<LabRow> SweepCache::find(const std::string& key, const LabJob& job) const {
    const fs::path entry = folder_ / key;
    std::error_code ec;
    if (!fs::exists(entry / "row.json", ec)) return std::nullopt;
    std::optional<LabRow> kept = keptRow(entry / "row.json");
    if (!kept) return std::nullopt;
    try {
        LabRow row = std::move(*kept);
        const std::string cachedPrefix = row.job.binaryPrefix;
        row.job = job;
        for (ProgramFigures& p : row.programs) {
            const std::string suffix = suffixOf(p.binaryFile, cachedPrefix);
            p.binaryFile.clear();
            if (job.binaryPrefix.empty() || suffix.empty() || !fs::exists(entry / suffix)) continue;
            p.binaryFile = job.binaryPrefix + suffix;
            writeFileAtomically(p.binaryFile, fileText(entry / suffix));
        }
        return row;
    } catch (const std::exception&) { // an entry of another format: measured again
        return std::nullopt;
    }
}

void SweepCache::store(const std::string& key, const LabRow& row) const {
    if (!row.ran()) return;
    try {
        const fs::path entry = folder_ / key;
        fs::create_directories(entry);
        for (const ProgramFigures& p : row.programs)
            if (!p.binaryFile.empty())
                writeFileAtomically((entry / suffixOf(p.binaryFile, row.job.binaryPrefix)).string(),
                                    fileText(p.binaryFile));
        writeFileAtomically((entry / "row.json").string(), jsonText(toJson(row)));
    } catch (const std::exception&) { // the cache is a convenience: the row stands without
    }
}

} // namespace clscope
