#include "gpu/scale/budget.hpp"

#include "core/errors.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace clscope {

namespace {

// Power of 1024 of a unit ("", "K", "KB", "KiB", ... case-insensitive); -1 when unknown.
int unitPower(std::string unit) {
    for (char& c : unit)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (unit.size() == 3 && unit.substr(1) == "IB") unit = unit.substr(0, 1);
    if (unit.size() == 2 && unit[1] == 'B') unit = unit.substr(0, 1);
    if (unit.empty() || unit == "B") return 0;
    const std::string order = "KMGT";
    const auto at = order.find(unit);
    return unit.size() == 1 && at != std::string::npos ? static_cast<int>(at) + 1 : -1;
}

} // namespace

std::uint64_t parseByteSize(const std::string& text) {
    const std::string bad =
        "--memory-budget " + text + ": expected a positive size such as 800M, 4G or 1048576";
    const std::size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
    if (digits == 0 || digits > 19) throw UsageError(bad);
    errno = 0;
    const unsigned long long number = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
    const int power = unitPower(text.substr(digits));
    if (errno == ERANGE || power < 0 || number == 0) throw UsageError(bad);
    std::uint64_t bytes = number;
    for (int i = 0; i < power; ++i) {
        if (bytes > UINT64_MAX / 1024) throw UsageError(bad);
        bytes *= 1024;
    }
    return bytes;
}

std::uint64_t defaultMemoryBudget(const std::vector<DeviceInfo>& devices) {
    std::uint64_t budget = availableHostMemory() / 2;
    for (const DeviceInfo& d : devices)
        if (!d.isHost() && d.globalMemBytes) budget = std::min(budget, d.globalMemBytes / 2);
    return std::max<std::uint64_t>(budget, 1);
}

} // namespace clscope
