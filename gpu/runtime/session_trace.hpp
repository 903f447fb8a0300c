// A session's timeline for whoever tunes a pipeline (CLSCOPE_TRACE=FILE, or "-" for stderr):
// every timed device command (kernels, copies, the transfer queues' DMAs) and the host marks
// of the run, in milliseconds on one host clock from the session's start, written when the
// session ends, with where the device and its DMA engine stood idle. Off (no cost) otherwise.
#pragma once
#include "gpu/runtime/opencl.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clscope {

class SessionTrace {
  public:
    // A trace for a session on queue's device when CLSCOPE_TRACE is set, else nullptr.
    static std::unique_ptr<SessionTrace> fromEnvironment(cl::CommandQueue& queue,
                                                         const std::string& device);
    ~SessionTrace(); // writes the trace
    SessionTrace(const SessionTrace&) = delete;
    SessionTrace& operator=(const SessionTrace&) = delete;

    // A command's profiling times (device clock, ns).
    void command(const std::string& label, std::uint64_t startNs, std::uint64_t endNs, bool kernel);
    void mark(const std::string& label);

  private:
    SessionTrace(std::string path, std::string device, std::chrono::steady_clock::time_point origin,
                 std::uint64_t deviceNs);
    double hostMs(std::chrono::steady_clock::time_point t) const;
    std::string text() const;

    struct Entry {
        std::string label;
        double startMs, endMs;
        int kind; // 0 kernel, 1 copy or DMA, 2 host mark
    };
    std::string path_, device_;
    std::chrono::steady_clock::time_point origin_;
    std::uint64_t deviceOriginNs_; // the device clock at origin_ (to within half the wait)
    std::vector<Entry> entries_;
};

} // namespace clscope
