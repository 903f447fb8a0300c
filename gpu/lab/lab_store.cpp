#include "gpu/lab/lab_store.hpp"

#include "core/atomic_file.hpp"
#include "gpu/variant/user_variants.hpp"

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace clscope {

fs::path labStoreFolder() {
    return userVariantsRoot() / "lab_store";
}

void keepInLabStore(const std::string& sha256, const std::string& ext, const std::string& bytes) {
    if (sha256.empty()) return;
    try {
        const fs::path path = labStoreFolder() / (sha256 + ext);
        if (fs::exists(path)) return;
        fs::create_directories(path.parent_path());
        writeFileAtomically(path.string(), bytes);
    } catch (const std::exception&) {
    }
}

std::optional<std::string> fromLabStore(const std::string& sha256) {
    if (sha256.empty()) return std::nullopt;
    for (const char* ext : {".cl", ".ptx", ".txt", ".bin"}) {
        std::ifstream in(labStoreFolder() / (sha256 + ext), std::ios::binary);
        if (!in) continue;
        std::ostringstream bytes;
        bytes << in.rdbuf();
        return bytes.str();
    }
    return std::nullopt;
}

} // namespace clscope
