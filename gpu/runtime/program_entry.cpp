#include "gpu/runtime/program_entry.hpp"

#include <cstdint>
#include <cstring>

namespace clscope {

namespace {

constexpr std::string_view magic = "clscope compiled program 1\n";

// FNV-1a, 64 bits: enough to tell damaged bytes (the key is compared in full).
std::uint64_t checksum(std::string_view bytes) {
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : bytes)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h;
}

void putNumber(std::string& out, std::uint64_t n) {
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
}

std::optional<std::uint64_t> takeNumber(std::string_view& in) {
    if (in.size() < 8) return std::nullopt;
    std::uint64_t n = 0;
    for (int i = 0; i < 8; ++i)
        n |= std::uint64_t(static_cast<unsigned char>(in[i])) << (8 * i);
    in.remove_prefix(8);
    return n;
}

bool takeField(std::string_view& in, std::string& field) {
    const auto n = takeNumber(in);
    if (!n || *n > in.size()) return false;
    field.assign(in.substr(0, *n));
    in.remove_prefix(*n);
    return true;
}

} // namespace

std::string encodeEntry(const ProgramEntry& entry) {
    std::string out(magic);
    for (const std::string* field :
         {&entry.key, &entry.loadOptions, &entry.buildLog, &entry.binary}) {
        putNumber(out, field->size());
        out += *field;
    }
    putNumber(out, checksum(out));
    return out;
}

std::optional<ProgramEntry> decodeEntry(std::string_view bytes) {
    if (bytes.size() < magic.size() + 8 || bytes.substr(0, magic.size()) != magic)
        return std::nullopt;
    std::string_view sum = bytes.substr(bytes.size() - 8);
    if (takeNumber(sum) != checksum(bytes.substr(0, bytes.size() - 8))) return std::nullopt;
    std::string_view in = bytes.substr(magic.size(), bytes.size() - 8 - magic.size());
    ProgramEntry entry;
    for (std::string* field : {&entry.key, &entry.loadOptions, &entry.buildLog, &entry.binary})
        if (!takeField(in, *field)) return std::nullopt;
    if (!in.empty()) return std::nullopt;
    return entry;
}

} // namespace clscope
