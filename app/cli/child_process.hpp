// clscope-cli run again as a child process: each line of a batch, each fresh process of
// bench --cold.
#pragma once
#include <string>
#include <vector>

namespace clscope::cli {

// This executable (/proc/self/exe); std::runtime_error when it cannot be found.
std::string selfPath();

// What a child gets besides its arguments: NAME=VALUE pairs set in (or replacing those of) this
// process's environment, and whether its stdout goes to /dev/null.
struct ChildSetup {
    std::vector<std::string> environment;
    bool quiet = false;
};

// Exit code of `self args...` run as a child process (signals as 128 + signal; 127 when it
// could not start).
int runChild(const std::string& self, const std::vector<std::string>& args,
             const ChildSetup& setup = {});

} // namespace clscope::cli
