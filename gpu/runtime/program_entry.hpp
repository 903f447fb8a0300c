// One compiled program as the disk cache of programs keeps it (gpu/runtime/program_store.hpp):
// its key, what its build from binary needs and the log of its build from source, in one file
// whose lengths and checksum say whether it is whole.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace clscope {

struct ProgramEntry {
    std::string key;         // device, source hash and options, as ClDevice makes it
    std::string loadOptions; // the options of clBuildProgram on the binary
    std::string buildLog;    // the log of the build that made the binary
    std::string binary;      // CL_PROGRAM_BINARIES of the program's one device
};

// The bytes of an entry's file: a magic line, four length-prefixed fields and a checksum.
std::string encodeEntry(const ProgramEntry& entry);

// The entry those bytes hold; nullopt when they are not one whole entry (another magic,
// truncated, trailing bytes, a checksum that differs).
std::optional<ProgramEntry> decodeEntry(std::string_view bytes);

} // namespace clscope
