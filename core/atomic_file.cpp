#include "core/atomic_file.hpp"

#include "core/errors.hpp"
#include "core/temp_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace clscope {

void writeFileAtomically(const std::string& fileName, std::string_view bytes) {
    const std::filesystem::path target(fileName);
    std::error_code ec;
    if (!target.parent_path().empty() && !std::filesystem::is_directory(target.parent_path(), ec))
        throw InputError(fileName + ": output folder " + target.parent_path().string() +
                         " does not exist");
    const std::string temp = temporaryNameFor(fileName);
    registerTemporary(temp);
    struct Forget {
        const std::string& path;
        ~Forget() { unregisterTemporary(path); }
    } forget{temp};
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            const std::string reason = std::strerror(errno);
            std::filesystem::remove(temp, ec);
            throw InputError(fileName + ": cannot write output file: " + reason);
        }
    }
    std::filesystem::rename(temp, target, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temp, ignored);
        throw InputError(fileName +
                         ": cannot rename the temporary file into place: " + ec.message());
    }
}

std::string readWholeFile(const std::string& fileName) {
    std::error_code ec;
    const auto status = std::filesystem::status(fileName, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw InputError(fileName + ": not a regular file (a folder, FIFO, socket or device)");
    std::ifstream in(fileName, std::ios::binary);
    if (!in) throw InputError(fileName + ": cannot open file: " + std::strerror(errno));
    std::ostringstream content;
    content << in.rdbuf();
    if (in.bad()) throw InputError(fileName + ": read error");
    return std::move(content).str();
}

} // namespace clscope
