#include "gpu/runtime/program_store.hpp"

#include "core/atomic_file.hpp"
#include "core/sha256.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <vector>

namespace clscope {

namespace fs = std::filesystem;

namespace {

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::string folderFromEnvironment() {
    if (const std::string dir = environment("CLSCOPE_CACHE_DIR"); !dir.empty()) return dir;
    if (const std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty())
        return xdg + "/clscope/programs";
    if (const std::string home = environment("HOME"); !home.empty())
        return home + "/.cache/clscope/programs";
    return "";
}

std::uint64_t maxBytesFromEnvironment() {
    const std::string mb = environment("CLSCOPE_PROGRAM_CACHE_MB");
    char* end = nullptr;
    const unsigned long long n = std::strtoull(mb.c_str(), &end, 10);
    return (mb.empty() || *end != '\0' ? 512ull : n) << 20;
}

} // namespace

void warnProgramCache(const std::string& what) {
    std::cerr << "clscope: program cache: " + what + "\n" << std::flush;
}

std::optional<ProgramStore> ProgramStore::fromEnvironment() {
    if (environment("CLSCOPE_PROGRAM_CACHE") == "0") return std::nullopt;
    std::string folder = folderFromEnvironment();
    if (folder.empty()) return std::nullopt;
    return ProgramStore(std::move(folder), maxBytesFromEnvironment());
}

ProgramStore::ProgramStore(std::string folder, std::uint64_t maxBytes)
    : folder_(std::move(folder)), maxBytes_(maxBytes) {}

std::string ProgramStore::fileOf(const std::string& key) const {
    return folder_ + "/" + sha256Hex(key).substr(0, 40) + ".clprogram";
}

std::optional<ProgramEntry> ProgramStore::load(const std::string& key) const {
    const std::string file = fileOf(key);
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return std::nullopt;
    std::optional<ProgramEntry> entry;
    try {
        entry = decodeEntry(readWholeFile(file));
    } catch (const std::exception&) { // gone meanwhile (evicted) or unreadable: not there
        return std::nullopt;
    }
    if (!entry || entry->key != key) {
        discard(key, entry ? "an entry of another key" : "a damaged entry");
        return std::nullopt;
    }
    fs::last_write_time(file, fs::file_time_type::clock::now(), ec);
    return entry;
}

void ProgramStore::save(const ProgramEntry& entry) const {
    static std::atomic<bool> warned{false};
    try {
        fs::create_directories(folder_);
        writeFileAtomically(fileOf(entry.key), encodeEntry(entry));
        evict();
    } catch (const std::exception& e) {
        if (!warned.exchange(true)) warnProgramCache(std::string("not kept: ") + e.what());
    }
}

void ProgramStore::discard(const std::string& key, const std::string& why) const {
    const std::string file = fileOf(key);
    std::error_code ec;
    fs::remove(file, ec);
    warnProgramCache(file + ": " + why + ", removed; built from source");
}

// The least recently used entries go first until the rest fit in maxBytes_ (other files of the
// folder, such as another process's temporaries, are left alone).
void ProgramStore::evict() const {
    struct Kept {
        fs::file_time_type used;
        std::uint64_t bytes;
        fs::path path;
    };
    std::vector<Kept> entries;
    std::uint64_t total = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder_, ec)) {
        if (e.path().extension() != ".clprogram") continue;
        std::error_code sizeError, timeError; // gone meanwhile (another process evicted it)
        const std::uint64_t bytes = fs::file_size(e.path(), sizeError);
        const fs::file_time_type used = fs::last_write_time(e.path(), timeError);
        if (sizeError || timeError) continue;
        total += bytes;
        entries.push_back({used, bytes, e.path()});
    }
    std::sort(entries.begin(), entries.end(),
              [](const Kept& a, const Kept& b) { return a.used < b.used; });
    for (const Kept& e : entries) {
        if (total <= maxBytes_) break;
        total -= e.bytes;
        fs::remove(e.path, ec);
    }
}

} // namespace clscope
