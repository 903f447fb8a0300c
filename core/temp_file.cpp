#include "core/temp_file.hpp"

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>
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

namespace {

// Fixed slots the signal handler can read without locks or allocation: a slot's state is
// 0 free, 1 being written or cleared, 2 holds a path.
constexpr std::size_t slotCount = 64, pathLength = 4096;
struct Slot {
    std::atomic<int> state{0};
    char path[pathLength];
};
std::array<Slot, slotCount> slots;

std::string absolute(const std::string& path) {
    std::error_code ec;
    const auto p = std::filesystem::absolute(path, ec);
    return ec ? path : p.string();
}

extern "C" void removeAndDie(int sig) {
    for (Slot& s : slots)
        if (s.state.load() == 2) ::unlink(s.path);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

} // namespace

void registerTemporary(const std::string& path) {
    const std::string full = absolute(path);
    if (full.size() >= pathLength) return;
    for (Slot& s : slots) {
        int expected = 0;
        if (!s.state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(s.path, full.c_str(), full.size() + 1);
        s.state.store(2);
        return;
    }
}

void unregisterTemporary(const std::string& path) {
    const std::string full = absolute(path);
    for (Slot& s : slots) {
        int expected = 2;
        if (!s.state.compare_exchange_strong(expected, 1)) continue;
        if (full == s.path) {
            s.state.store(0);
            return;
        }
        s.state.store(2);
    }
}

void removeTemporariesOnSignals() {
    static std::atomic<bool> installed{false};
    if (installed.exchange(true)) return;
    struct sigaction action {};
    action.sa_handler = removeAndDie;
    sigemptyset(&action.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction previous {};
        // Keep an "ignore" inherited from the parent (e.g. nohup).
        if (sigaction(sig, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
        sigaction(sig, &action, nullptr);
    }
}

} // namespace clscope
