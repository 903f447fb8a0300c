// Temporary names beside an output file: outputs are written there, then renamed into place.
// Registered temporaries are removed when the process is stopped by SIGINT, SIGTERM or
// SIGHUP (once removeTemporariesOnSignals() is installed), so a killed run leaves no file.
#pragma once
#include <string>

namespace clscope {

// ".<name>.tmp-<pid>-<n>" in the target's folder (<name> cut to fit NAME_MAX); unique within
// the process. Temporaries of that name left by a process that no longer exists are removed.
std::string temporaryNameFor(const std::string& target);

// Track a temporary file until it is renamed or removed (at most 64 at a time; more are
// simply not tracked).
void registerTemporary(const std::string& path);
void unregisterTemporary(const std::string& path);

// Unlink every registered temporary now (async-signal-safe): for a process about to end
// without unwinding (a signal, a kernel that never finishes).
void removeRegisteredTemporaries();

// Install handlers for SIGINT, SIGTERM and SIGHUP that unlink the registered temporaries,
// then die of the same signal. Idempotent.
void removeTemporariesOnSignals();

} // namespace clscope
