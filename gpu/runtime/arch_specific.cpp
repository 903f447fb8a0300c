#include "gpu/runtime/arch_specific.hpp"

#include "core/errors.hpp"

#include <cctype>
#include <cstring>
#include <sstream>

namespace clscope {

std::optional<std::string> archSpecificPtx(const std::string& ptx) {
    const std::size_t markLength = std::strlen(archSpecificMark);
    if (ptx.find(archSpecificMark) == std::string::npos) return std::nullopt;
    std::string out;
    out.reserve(ptx.size());
    for (std::size_t at = 0;;) {
        const std::size_t mark = ptx.find(archSpecificMark, at);
        out.append(ptx, at, mark == std::string::npos ? std::string::npos : mark - at);
        if (mark == std::string::npos) break;
        at = mark + markLength;
    }
    const std::string target = ".target sm_";
    const std::size_t t = out.find(target);
    if (t == std::string::npos)
        throw DeviceError("PTX with architecture-specific instructions names no .target sm_");
    std::size_t end = t + target.size();
    while (end < out.size() && std::isdigit(static_cast<unsigned char>(out[end])))
        ++end;
    if (end == t + target.size())
        throw DeviceError(
            "PTX with architecture-specific instructions: no number after .target sm_");
    if (end == out.size() || out[end] != 'a') out.insert(end, "a");
    return out;
}

std::string archSpecificOptions(const std::string& options) {
    std::istringstream words(options);
    std::string word, kept;
    while (words >> word)
        if (word.rfind("-cl-nv-", 0) == 0) kept += (kept.empty() ? "" : " ") + word;
    return kept;
}

} // namespace clscope
