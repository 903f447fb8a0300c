// A worker process for work that may hang or crash (a user's kernel): the program itself
// started again with other arguments, telling its progress one line at a time on file
// descriptor 3. The caller waits while lines keep coming; a worker silent for longer than the
// timeout is killed (SIGKILL), so the caller never hangs and never crashes with it.
#pragma once
#include <string>
#include <vector>

namespace clscope {

struct ContainedRun {
    std::vector<std::string> lines; // what the worker said on descriptor 3, in order
    bool timedOut = false;          // killed after `silence` seconds without a line
    int exitCode = -1;              // when it exited
    int signal = 0;                 // when a signal ended it (SIGKILL after a timeout too)
    std::string errorOutput;        // what it wrote on stderr (a compiler's diagnostics)
    std::string signalName() const; // e.g. "SIGSEGV"
};

// Runs this executable (/proc/self/exe) with `arguments` (argv[1..]); its stdin is /dev/null,
// stdout is this process's, stderr kept in errorOutput (the caller says its own reason first).
// Returns when it has ended.
ContainedRun runContained(const std::vector<std::string>& arguments, double silenceSeconds);

// In the worker: writes one line (no newline inside) to descriptor 3, the caller's pipe.
void tellCaller(const std::string& line);

} // namespace clscope
