#include "core/file_ranges.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

namespace clscope {

ReadOnlyFile::ReadOnlyFile(const std::string& name) : name_(name) {
    fd_ = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw InputError(name + ": cannot open: " + std::strerror(errno));
}

ReadOnlyFile::~ReadOnlyFile() {
    if (fd_ >= 0) ::close(fd_);
}

void ReadOnlyFile::read(std::span<const FileRange> ranges, std::size_t threads) const {
    std::atomic<std::size_t> next = 0;
    std::mutex failing;
    std::string failure;
    auto work = [&] {
        for (std::size_t i = next++; i < ranges.size(); i = next++) {
            const FileRange& r = ranges[i];
            std::byte* to = r.to;
            if (!to) r.into->resize(r.bytes), to = r.into->data();
            for (std::size_t done = 0; done < r.bytes;) {
                const ssize_t got =
                    ::pread(fd_, to + done, r.bytes - done, static_cast<off_t>(r.offset + done));
                if (got > 0) {
                    done += std::size_t(got);
                    continue;
                }
                if (got < 0 && errno == EINTR) continue;
                std::lock_guard lock(failing);
                failure = "bytes " + std::to_string(r.offset) + ".." +
                          std::to_string(r.offset + r.bytes) + ": " +
                          (got == 0 ? std::string("the file ends first") : std::strerror(errno));
                return;
            }
        }
    };
    {
        std::vector<std::jthread> helpers;
        for (std::size_t t = 1; t < std::min(threads, ranges.size()); ++t)
            helpers.emplace_back(work);
        work();
    }
    if (!failure.empty()) throw InputError(name_ + ": cannot read " + failure);
}

} // namespace clscope
