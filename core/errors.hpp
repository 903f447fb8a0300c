// Error kinds of clscope: each maps to one CLI exit code (DESIGN.md §4).
#pragma once
#include <stdexcept>
#include <string>

namespace clscope {

// Exit codes of clscope-cli.
enum ExitCode : int { ExitOk = 0, ExitUsage = 2, ExitInput = 3, ExitDevice = 4 };

// Bad arguments: values out of range, unknown names (exit 2).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Bad input data: missing file or dataset, wrong rank, dtype or shape (exit 3).
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Device trouble: no such device, build failure with its log, out of memory (exit 4).
struct DeviceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A run stopped because the user asked for it.
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
};

} // namespace clscope
