#include "core/temp_file.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <signal.h>
#include <unistd.h>

namespace clscope {

namespace {

// Temporaries of runs that were killed (SIGKILL, power loss): ".NAME.tmp-PID-N" beside the
// target whose PID no longer exists. A live PID (maybe reused) keeps its file.
void removeStaleTemporaries(const std::filesystem::path& dir, const std::string& prefix) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir.empty() ? fs::path(".") : dir, ec);
         !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const fs::directory_entry& entry = *it;
        const std::string name = entry.path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = name.substr(prefix.size());
        const std::size_t dash = rest.find('-');
        if (dash == 0 || dash == std::string::npos || dash > 9 ||
            rest.find_first_not_of("0123456789-") != std::string::npos)
            continue;
        const pid_t pid = static_cast<pid_t>(std::stol(rest.substr(0, dash)));
        std::error_code ignored;
        if (::kill(pid, 0) != 0 && errno == ESRCH && entry.is_regular_file(ignored))
            fs::remove(entry.path(), ignored);
    }
}

} // namespace

std::string temporaryNameFor(const std::string& target) {
    static std::atomic<int> counter{0};
    const std::filesystem::path p(target);
    const std::string pid = std::to_string(getpid()), n = std::to_string(counter++);
    // ".NAME.tmp-PID-N" fits NAME_MAX (255): a long target name is cut, PID and N kept.
    std::string prefix = ".";
    prefix += p.filename().string();
    prefix.resize(std::min(prefix.size(), std::size_t(255) - 6 - pid.size() - 1 - n.size()));
    prefix += ".tmp-";
    removeStaleTemporaries(p.parent_path(), prefix);
    prefix += pid;
    prefix += '-';
    prefix += n;
    return (p.parent_path() / prefix).string();
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
    removeRegisteredTemporaries();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

} // namespace

void removeRegisteredTemporaries() {
    for (Slot& s : slots)
        if (s.state.load() == 2) ::unlink(s.path);
}

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
