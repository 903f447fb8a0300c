#include "gpu/runtime/compiler_output.hpp"

#include <cstdlib>
#include <mutex>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace clscope {

namespace {

// The redirection shared by the builds running at one time.
struct Redirection {
    std::mutex mutex;
    int holders = 0;
    int savedFd = -1;     // the real stderr while redirected
    FILE* file = nullptr; // where stderr goes meanwhile
};

Redirection& redirection() {
    static Redirection r;
    return r;
}

std::string contents(FILE* file) {
    std::string text;
    std::rewind(file);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;)
        text.append(buffer, n);
    return text;
}

void writeAll(int fd, const std::string& text) {
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) return;
        done += std::size_t(n);
    }
}

} // namespace

CompilerOutput::CompilerOutput() {
    Redirection& r = redirection();
    std::lock_guard lock(r.mutex);
    if (r.holders++ > 0) return;
    std::fflush(stderr);
    r.file = std::tmpfile();
    r.savedFd = r.file ? ::dup(2) : -1;
    if (r.savedFd < 0 || ::dup2(fileno(r.file), 2) < 0) { // not redirected: stderr as it was
        if (r.savedFd >= 0) ::close(r.savedFd);
        if (r.file) std::fclose(r.file);
        r.savedFd = -1, r.file = nullptr;
    }
}

CompilerOutput::~CompilerOutput() {
    Redirection& r = redirection();
    std::lock_guard lock(r.mutex);
    if (--r.holders > 0 || !r.file) return;
    std::fflush(stderr);
    ::dup2(r.savedFd, 2);
    ::close(r.savedFd);
    const char* log = std::getenv("CLSCOPE_CL_LOG");
    writeAll(2, passedOn(contents(r.file), log && std::string(log) == "1"));
    std::fclose(r.file);
    r.savedFd = -1, r.file = nullptr;
}

void CompilerOutput::restoreTerminal() {
    Redirection& r = redirection();
    std::lock_guard lock(r.mutex);
    if (r.savedFd >= 0) ::dup2(r.savedFd, 2);
}

bool CompilerOutput::summaryLine(const std::string& line) {
    static const std::regex summary(
        R"(^\d+ (warnings?|errors?)( and \d+ (warnings?|errors?))? generated\.\s*$)");
    return std::regex_match(line, summary);
}

std::string CompilerOutput::passedOn(const std::string& captured, bool keepSummaries) {
    std::string kept;
    std::istringstream in(captured);
    for (std::string line; std::getline(in, line);)
        if (keepSummaries || !summaryLine(line)) kept += line + (in.eof() ? "" : "\n");
    return kept;
}

} // namespace clscope
