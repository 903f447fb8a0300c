#include "app/cli/child_process.hpp"

#include <cerrno>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace clscope::cli {

namespace {

std::string nameOf(const std::string& assignment) {
    return assignment.substr(0, assignment.find('='));
}

// This process's environment less the names `set` gives, then `set`.
std::vector<std::string> environmentWith(const std::vector<std::string>& set) {
    std::vector<std::string> out;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        bool replaced = false;
        for (const std::string& s : set)
            replaced |= nameOf(s) == nameOf(entry);
        if (!replaced) out.push_back(entry);
    }
    out.insert(out.end(), set.begin(), set.end());
    return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (std::string& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

} // namespace

std::string selfPath() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) throw std::runtime_error("cannot find the clscope-cli executable");
    return std::string(path, static_cast<std::size_t>(n));
}

int runChild(const std::string& self, const std::vector<std::string>& args,
             const ChildSetup& setup) {
    std::vector<std::string> argStrings{self}, envStrings = environmentWith(setup.environment);
    argStrings.insert(argStrings.end(), args.begin(), args.end());
    const std::vector<char*> argv = pointers(argStrings), envp = pointers(envStrings);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (setup.quiet)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int spawned =
        posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return 127;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return 127;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace clscope::cli
