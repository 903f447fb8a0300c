// Compiled programs kept on disk between processes, so that a fresh process loads the programs
// an earlier one built instead of compiling their OpenCL C again (ClDevice::program asks it
// after its in-process cache). One file an entry (gpu/runtime/program_entry.hpp), named by the
// SHA-256 of its key, written to a temporary name and renamed into place: a concurrent reader
// sees the old file, the new one or none. An entry whose bytes are not whole or whose key
// differs is removed (the caller builds from source), never trusted.
//
// Where: $CLSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/clscope/programs, else
// ~/.cache/clscope/programs; CLSCOPE_PROGRAM_CACHE=0 turns it off. Past
// CLSCOPE_PROGRAM_CACHE_MB (512) megabytes, the least recently used entries go.
#pragma once
#include "gpu/runtime/program_entry.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace clscope {

class ProgramStore {
  public:
    // The store the environment asks for; nullopt when it is turned off or no folder is known.
    static std::optional<ProgramStore> fromEnvironment();
    ProgramStore(std::string folder, std::uint64_t maxBytes);

    const std::string& folder() const { return folder_; }
    // The entry stored under key (its file then counts as just used); nullopt when there is
    // none or it is damaged or foreign (then removed, with one line on stderr).
    std::optional<ProgramEntry> load(const std::string& key) const;
    // Keep entry (under entry.key), then remove the oldest entries past the size bound. A
    // folder that cannot be written is said once a process on stderr; nothing throws.
    void save(const ProgramEntry& entry) const;
    // Remove key's entry (it failed to build from binary), saying why on stderr.
    void discard(const std::string& key, const std::string& why) const;

  private:
    std::string fileOf(const std::string& key) const;
    void evict() const;

    std::string folder_;
    std::uint64_t maxBytes_;
};

// One line on stderr about the cache of programs ("clscope: program cache: ...").
void warnProgramCache(const std::string& what);

} // namespace clscope
