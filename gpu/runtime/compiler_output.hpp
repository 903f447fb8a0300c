// What an OpenCL compiler writes on the process's stderr while it builds a program: PoCL's clang
// prints its summary ("8 warnings generated.") there, outside the build log. A build holds a
// CompilerOutput while it runs; while any is held, stderr (fd 2) goes to a temporary file, and
// when the last one ends the file's lines go back to stderr, all but the compiler's summary
// lines, which reach stderr only with CLSCOPE_CL_LOG=1. The warnings themselves are in the
// program's build log (CL_PROGRAM_BUILD_LOG: CLSCOPE_CL_LOG=1 prints it, the kernel lab shows
// it).
#pragma once
#include <cstdio>
#include <string>

namespace clscope {

class CompilerOutput {
  public:
    CompilerOutput();
    ~CompilerOutput();
    CompilerOutput(const CompilerOutput&) = delete;
    CompilerOutput& operator=(const CompilerOutput&) = delete;

    // stderr back on the terminal at once, for last words before the process ends in the middle
    // of a build (a kernel timeout, quitting with a run left on its device): without it they
    // would go to the temporary file and be lost with the process.
    static void restoreTerminal();

    // Whether a line of what was captured is a compiler's summary ("1 warning generated.",
    // "2 warnings and 1 error generated.").
    static bool summaryLine(const std::string& line);
    // The captured text without the summary lines (kept when `keepSummaries`).
    static std::string passedOn(const std::string& captured, bool keepSummaries);
};

} // namespace clscope
