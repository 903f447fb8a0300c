// Containment of libhdf5 (issue 13): the first open of an untrusted file is probed in a forked
// child that does the metadata work the readers do, so that a crash or hang inside Debian's
// libhdf5 1.10.8 ends as one InputError in the parent instead of a dead process.
//
// fork in a multi-threaded process (the GUI, PoCL's workers): the child only calls HDF5, which
// every thread reaches through h5::mutex(), held by the forking thread, so no other thread is
// inside HDF5; glibc malloc, whose locks glibc's fork() takes around the fork; and C++
// exception unwinding, which finds its tables through _dl_find_object (lock-free, glibc 2.35,
// used by gcc 12's libgcc); not AddressSanitizer's allocator, whose locks clang 14 leaves as
// they were at the fork (sanitizer builds fork a second child when the first hangs). The
// child leaves with _exit: no atexit handler, no destructor of the parent's objects, no stdio
// flush.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/hdf5_util.hpp"
#include "core/limits.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <memory>
#include <poll.h>
#include <regex>
#include <set>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLSCOPE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(CLSCOPE_ASAN)
#define CLSCOPE_ASAN 1
#endif

extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace clscope::h5 {

namespace {

bool inProbeChild = false;

// Work of the child: the tree as the data browser walks it (links, objects, attributes),
// every dataset's description and storage checks (the chunk index), small datasets read
// whole, the first frame of large ones. Bounded in depth and in objects.
struct Walk {
    const H5Reader& file;
    int budget = 20000;

    void dataset(const H5Node& node) {
        const auto bytes = checkedBytes(node.info.shape, 8);
        if (bytes && *bytes <= (4u << 20))
            node.info.dtype ? (void)file.read(node.path)
                            : (void)file.read(node.path, DType::Float64);
        else if (node.info.dtype && !node.info.shape.empty())
            file.readSlab(node.path, 0, std::min<std::size_t>(node.info.shape[0], 1));
    }

    void group(const std::string& path, int depth) {
        if (depth > 8 || budget <= 0) return;
        std::vector<H5Node> nodes;
        try {
            nodes = file.children(path);
        } catch (const InputError&) {
            return;
        }
        for (const H5Node& node : nodes) {
            if (--budget <= 0) return;
            try {
                if (node.kind == H5Node::Group) group(node.path, depth + 1);
                if (node.kind == H5Node::Dataset) dataset(node);
            } catch (const InputError&) {
            }
        }
    }
};

// The child's side: quiet, no core file, no handler of the parent's, then the walk.
[[noreturn]] void childMain(int done, int report, const std::function<H5Reader*()>& open) {
    inProbeChild = true;
    replaceMutexInChild();
    if (!std::getenv("CLSCOPE_PROBE_VERBOSE")) {
        const int null = ::open("/dev/null", O_WRONLY);
        if (null >= 0) ::dup2(null, 1);
        if (report >= 0) ::dup2(report, 2);
    }
    const rlimit noCore{0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    for (int sig : {SIGABRT, SIGILL, SIGINT, SIGTERM, SIGHUP, SIGPIPE})
        std::signal(sig, SIG_DFL);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr); // libFuzzer's
    try {
        std::unique_ptr<H5Reader> file(open());
        Walk{*file}.group("/", 0);
    } catch (...) { // a refusal: the parent's own read gives the message
    }
    const char ok = 'k';
    const bool sent = ::write(done, &ok, 1) == 1;
    ::_exit(sent ? 0 : 1);
}

double probeSeconds() {
    const char* s = std::getenv("CLSCOPE_PROBE_SECONDS");
    const double v = s ? std::atof(s) : 0.0;
    return v > 0 ? v : 60.0;
}

std::string readAll(int fd) {
    std::string out;
    char buf[4096];
    ::lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0 && out.size() < (1u << 20);)
        out.append(buf, static_cast<std::size_t>(n));
    return out;
}

#ifdef CLSCOPE_ASAN
// Sanitizer builds: the first frame of the child's report that is not the sanitizer's, libc's
// or libFuzzer's tells whose fault it is (the rule of scripts/fuzz_hdf5's triage).
bool reportBlamesLibhdf5(const std::string& report) {
    if (report.find("runtime error:") != std::string::npos) return false; // UBSan: clscope's code
    static const std::regex frame(R"(\n\s+#\d+ 0x[0-9a-f]+ in ([^\n]*))");
    static const std::regex neutral(
        R"(__interceptor_|__asan|__ubsan|__sanitizer|fuzzer::|libc\.so|memmove|memcpy|memset|)"
        R"(malloc|calloc|realloc|\bfree\b|operator new|operator delete|libclang_rt|compiler-rt|)"
        R"(/sysdeps/|\(<unknown module>\))");
    static const std::regex library(R"(libhdf5|libz\.so|libsz|/hdf5/serial/plugins/|libh5bshuf)");
    for (std::sregex_iterator it(report.begin(), report.end(), frame), end; it != end; ++it) {
        const std::string f = (*it)[1];
        if (!std::regex_search(f, neutral)) return std::regex_search(f, library);
    }
    return true; // no stack (a plain signal, a hang): inside the library's calls
}
#endif

enum class Outcome { Ok, Crashed, Hung, NotRun };

// Fork, let the child walk the file, wait for its answer at most `seconds`.
Outcome runChild(const std::function<H5Reader*()>& open, std::string& report, int& status) {
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) return Outcome::NotRun;
    const int reportFd = ::memfd_create("clscope-probe-report", MFD_CLOEXEC);
    const pid_t pid = ::fork();
    if (pid == 0) childMain(pipeFds[1], reportFd, open);
    ::close(pipeFds[1]);
    if (pid < 0) {
        ::close(pipeFds[0]);
        if (reportFd >= 0) ::close(reportFd);
        return Outcome::NotRun;
    }
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<long>(probeSeconds() * 1000));
    char answer = 0;
    Outcome outcome = Outcome::Hung;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        pollfd p{pipeFds[0], POLLIN, 0};
        const int r = ::poll(&p, 1, static_cast<int>(std::max<long>(left.count(), 0)));
        if (r < 0 && errno == EINTR) continue;
        if (r > 0) outcome = ::read(pipeFds[0], &answer, 1) == 1 ? Outcome::Ok : Outcome::Crashed;
        break;
    }
    if (outcome == Outcome::Hung) ::kill(pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (outcome == Outcome::Ok && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        outcome = Outcome::Crashed;
    ::close(pipeFds[0]);
    if (reportFd >= 0) {
        report = readAll(reportFd);
        ::close(reportFd);
    }
    return outcome;
}

void probe(const std::string& name, const std::function<H5Reader*()>& open) {
    if (inProbeChild) return;
    const char* off = std::getenv("CLSCOPE_PROBE");
    if (off && std::string(off) == "0") return;
    std::string report;
    int status = 0;
    const double seconds = probeSeconds();
    const auto start = std::chrono::steady_clock::now();
    Outcome outcome = runChild(open, report, status);
#ifdef CLSCOPE_ASAN
    // clang 14's AddressSanitizer does not take its allocator's locks around fork (no fork
    // interceptor): a child forked while another thread allocates can wait forever on a lock
    // that nobody in it holds (tst_stream's publisher and receiver, once in ten CI runs). A
    // second child is forked at another moment; a file that hangs libhdf5 hangs it again.
    if (outcome == Outcome::Hung) outcome = runChild(open, report, status);
#endif
    if (std::getenv("CLSCOPE_PROBE_VERBOSE"))
        std::fprintf(
            stderr, "clscope: probe of %s: %.1f ms\n", name.c_str(),
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    if (outcome == Outcome::Ok || outcome == Outcome::NotRun) return;
    if (outcome == Outcome::Hung) {
        char text[64];
        std::snprintf(text, sizeof text, "%g", seconds);
        throw InputError(name + ": the HDF5 library hung reading it (no answer in " + text +
                         " s): the file is damaged");
    }
#ifdef CLSCOPE_ASAN
    if (!reportBlamesLibhdf5(report)) { // clscope's own fault: a finding, never hidden
        std::fprintf(stderr, "clscope: the HDF5 probe of %s failed in clscope:\n%s\n", name.c_str(),
                     report.c_str());
        std::abort();
    }
#endif
    const std::string how = WIFSIGNALED(status)
                                ? std::string("signal ") + std::to_string(WTERMSIG(status))
                                : "exit status " + std::to_string(WEXITSTATUS(status));
    throw InputError(name + ": the HDF5 library crashed reading it (" + how +
                     "): the file is damaged");
}

} // namespace

void probeFile(const std::string& fileName) {
    std::lock_guard<std::recursive_mutex> lock(mutex());
    struct stat st {};
    if (::stat(fileName.c_str(), &st) != 0) return;
    using Key = std::tuple<dev_t, ino_t, off_t, long, long>;
    static std::set<Key> probed; // files found sound, as they were then
    const Key key{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
    if (probed.count(key)) return;
    probe(fileName, [&] { return new H5Reader(fileName); });
    probed.insert(key);
}

void probeImage(const std::string& name, const void* image, std::size_t size) {
    std::lock_guard<std::recursive_mutex> lock(mutex());
    probe(name, [&] { return new H5Reader(name, image, size); });
}

} // namespace clscope::h5
