#include "core/temp_file.hpp"

#include <atomic>
#include <filesystem>
#include <unistd.h>

namespace clscope {

std::string temporaryNameFor(const std::string& target) {
    static std::atomic<int> counter{0};
    const std::filesystem::path p(target);
    std::string name = ".";
    name += p.filename().string();
    name += ".tmp-";
    name += std::to_string(getpid());
    name += '-';
    name += std::to_string(counter++);
    return (p.parent_path() / name).string();
}

} // namespace clscope
