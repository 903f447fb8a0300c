#include "core/atomic_file.hpp"

#include "core/errors.hpp"
#include "core/output_check.hpp"
#include "core/temp_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace clscope {

StagedFile::StagedFile(std::string fileName, std::string_view bytes)
    : fileName_(std::move(fileName)) {
    checkOutputFile("output", fileName_);
    temp_ = temporaryNameFor(fileName_);
    registerTemporary(temp_);
    std::ofstream out(temp_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
        const std::string reason = std::strerror(errno);
        std::error_code ignored;
        std::filesystem::remove(temp_, ignored);
        unregisterTemporary(temp_);
        throw InputError(fileName_ + ": cannot write output file: " + reason);
    }
}

StagedFile::StagedFile(StagedFile&& o) noexcept
    : fileName_(std::move(o.fileName_)), temp_(std::move(o.temp_)) {
    o.temp_.clear();
}

StagedFile::~StagedFile() {
    if (temp_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
    unregisterTemporary(temp_);
}

void StagedFile::publish() {
    std::error_code ec;
    std::filesystem::rename(temp_, fileName_, ec);
    if (ec)
        throw InputError(fileName_ +
                         ": cannot rename the temporary file into place: " + ec.message());
    unregisterTemporary(temp_);
    temp_.clear();
}

void writeFileAtomically(const std::string& fileName, std::string_view bytes) {
    StagedFile(fileName, bytes).publish();
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
