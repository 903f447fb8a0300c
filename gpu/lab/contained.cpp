#include "gpu/lab/contained.hpp"

#include "core/errors.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clscope {

namespace {

constexpr int callerFd = 3;

// Only async-signal-safe calls between fork and exec: argv is built before the fork.
[[noreturn]] void execWorker(char* const* argv, int writeEnd, int errorFd) {
    if (writeEnd == callerFd)
        fcntl(callerFd, F_SETFD, 0); // dup2 onto itself would keep close-on-exec
    else if (dup2(writeEnd, callerFd) < 0)
        _exit(127);
    else
        close(writeEnd);
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    if (errorFd >= 0) dup2(errorFd, 2);
    execv("/proc/self/exe", argv);
    _exit(127);
}

// Splits what arrived into lines; the unfinished tail stays in `pending`.
void takeLines(std::string& pending, std::vector<std::string>& lines) {
    std::size_t end;
    while ((end = pending.find('\n')) != std::string::npos) {
        lines.push_back(pending.substr(0, end));
        pending.erase(0, end + 1);
    }
}

// Reads the worker's lines until it closes the pipe or stays silent too long.
bool readUntilEnd(int fd, double silenceSeconds, std::vector<std::string>& lines) {
    std::string pending;
    char buffer[65536];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        const int ready = poll(&p, 1, static_cast<int>(silenceSeconds * 1000));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) return false; // silent: the kernel did not finish
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        pending.append(buffer, std::size_t(got));
        takeLines(pending, lines);
    }
    if (!pending.empty()) lines.push_back(pending);
    return true;
}

// What the worker wrote to its stderr file (at most 1 MiB), which is then closed.
std::string takeErrorOutput(int errorFd) {
    std::string text;
    if (errorFd < 0) return text;
    char buffer[65536];
    ssize_t got;
    lseek(errorFd, 0, SEEK_SET);
    while (text.size() < (1u << 20) &&
           ((got = read(errorFd, buffer, sizeof buffer)) > 0 || (got < 0 && errno == EINTR)))
        if (got > 0) text.append(buffer, std::size_t(got));
    close(errorFd);
    return text;
}

} // namespace

std::string ContainedRun::signalName() const {
    switch (signal) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGABRT:
        return "SIGABRT";
    case SIGILL:
        return "SIGILL";
    case SIGFPE:
        return "SIGFPE";
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    default:
        return "signal " + std::to_string(signal);
    }
}

ContainedRun runContained(const std::vector<std::string>& arguments, double silenceSeconds) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        throw DeviceError(std::string("cannot start the worker process: ") + std::strerror(errno));
    std::vector<char*> argv;
    static char self[] = "clscope-cli";
    argv.push_back(self);
    for (const std::string& a : arguments)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int errorFd = memfd_create("clscope-worker-stderr", MFD_CLOEXEC); // -1: not kept
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]), close(fds[1]);
        if (errorFd >= 0) close(errorFd);
        throw DeviceError(std::string("cannot start the worker process: ") + std::strerror(errno));
    }
    if (pid == 0) execWorker(argv.data(), fds[1], errorFd);
    close(fds[1]);
    ContainedRun run;
    run.timedOut = !readUntilEnd(fds[0], silenceSeconds, run.lines);
    if (run.timedOut) kill(pid, SIGKILL);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) run.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
    run.errorOutput = takeErrorOutput(errorFd);
    return run;
}

void tellCaller(const std::string& line) {
    const std::string text = line + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(callerFd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return; // the caller is gone
        done += std::size_t(n);
    }
}

} // namespace clscope
