#include "core/limits.hpp"

#include "core/errors.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace clscope {

std::optional<std::uint64_t> checkedBytes(const Shape& shape, std::size_t elementBytes) {
    std::uint64_t total = elementBytes;
    for (std::size_t d : shape)
        if (__builtin_mul_overflow(total, static_cast<std::uint64_t>(d), &total))
            return std::nullopt;
    return total;
}

std::uint64_t availableHostMemory() {
    std::uint64_t available = 0;
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") {
            available = kib * 1024;
            break;
        }
    if (available == 0) {
        const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        if (pages > 0 && size > 0)
            available = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size);
    }
    if (const char* limit = std::getenv("CLSCOPE_MEMORY_LIMIT")) {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(limit, &end, 10);
        if (end != limit && (available == 0 || v < available)) available = v;
    }
    return available;
}

std::string byteText(std::uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 6)
        v /= 1024, ++u;
    char buf[48];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

void checkHostMemory(std::uint64_t bytes, const std::string& what) {
    const std::uint64_t available = availableHostMemory();
    if (available > 0 && bytes > available)
        throw InputError(what + ": needs " + byteText(bytes) + " (" + std::to_string(bytes) +
                         " bytes) in host memory, only " + byteText(available) + " available");
}

} // namespace clscope
