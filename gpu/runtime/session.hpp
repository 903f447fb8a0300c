// OpenCL context, program cache, checked launches and labelled profiling.
#pragma once
#include "core/timing.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/runtime/opencl.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace clscope {

class SessionTrace;

// A profiling queue on one device plus the timings of what ran on it.
class ClSession {
  public:
    explicit ClSession(const DeviceInfo& info);
    // Waits for everything queued (errors ignored): no command can outlive the host memory
    // or buffers it uses, also when an exception unwinds the run. Then gives the device's
    // buffer pool the session's buffers that nothing else holds.
    ~ClSession();
    ClSession(const ClSession&) = delete;
    ClSession& operator=(const ClSession&) = delete;

    const DeviceInfo& info() const { return device_->info(); }
    ClDevice& device() { return *device_; }
    const cl::Context& context() const { return device_->context(); }
    cl::CommandQueue& queue() { return queue_; }

    // The program of a recipe with these tunable values (every tunable passed, defaults for
    // those not given), from the device's cache, which keeps the resolved values with it; a
    // kernel of it.
    cl::Program program(const ProgramRecipe& recipe, const TunableValues& values);
    cl::Kernel kernel(const ProgramRecipe& recipe, const TunableValues& values,
                      const std::string& kernelName);

    // Check the shape against the device and the kernel, round the global size up to a
    // multiple of the local size and enqueue; the event is recorded under label.
    void launch(cl::Kernel& kernel, const std::string& label, const LaunchShape& shape);

    // A new buffer, or one a finished session left in the device's pool (contents undefined,
    // as OpenCL's own).
    cl::Buffer allocate(std::size_t bytes, const std::string& what,
                        cl_mem_flags flags = CL_MEM_READ_WRITE);
    // Blocking: the host data may be freed or reused as soon as upload() returns.
    void upload(const cl::Buffer& buffer, const void* data, std::size_t bytes,
                const std::string& label);
    void download(const cl::Buffer& buffer, void* data, std::size_t bytes,
                  const std::string& label);
    // Zero `bytes` of the buffer from byte `offset` on.
    void fill(const cl::Buffer& buffer, std::size_t bytes, const std::string& label,
              std::size_t offset = 0);
    // On the device, queued: `bytes` of `from` at fromOffset to `to` at toOffset (one buffer may
    // be both where the two ranges do not overlap).
    void copy(const cl::Buffer& from, std::size_t fromOffset, const cl::Buffer& to,
              std::size_t toOffset, std::size_t bytes, const std::string& label);

    // Wait for everything queued and move the events' times into timings().
    void finish();
    // The events recorded so far and not yet timed; settle(n): wait for the first n of them
    // (in queue order: what was enqueued after them may still run) and time them.
    std::size_t pendingCount() const { return pending_.size(); }
    void settle(std::size_t count);
    TimingStats& timings() { return timings_; }
    // An event of this queue enqueued elsewhere, timed at finish().
    void record(const cl::Event& event, const std::string& label, bool kernel = false);
    // A finished command's profiling times (ns, device clock; also another queue's of this
    // device) into timings() and the trace; a host mark in the trace (CLSCOPE_TRACE).
    void timed(const std::string& label, std::uint64_t startNs, std::uint64_t endNs,
               bool kernel = false);
    void mark(const std::string& label);

  private:
    cl::Buffer newBuffer(std::size_t bytes, const std::string& what, cl_mem_flags flags);
    template <class Enqueue> void enqueueRecorded(const std::string& label, Enqueue&& enqueue);
    cl::Program timedProgram(const std::string& source, const std::string& options,
                             const TunableValues& values);

    std::shared_ptr<ClDevice> device_;
    cl::CommandQueue queue_;
    struct PendingEvent {
        cl::Event event;
        std::string label;
        bool kernel;
    };
    std::vector<PendingEvent> pending_;
    TimingStats timings_;
    std::unique_ptr<SessionTrace> trace_; // CLSCOPE_TRACE only
    // With the pool on: buffers handed out (for the pool at the end), and those the run has let
    // go of (reused by this session first).
    std::vector<SizedBuffer> allocated_, spares_;
    cl::Buffer reusedBuffer(std::size_t bytes, cl_mem_flags flags);
    static bool soleHolder(const cl::Buffer& buffer);
};

// Check a launch against device and kernel limits; returns the rounded global size.
std::vector<std::size_t> checkLaunch(const DeviceInfo& device, std::size_t kernelMaxGroup,
                                     std::uint64_t kernelLocalMem, const std::string& label,
                                     const LaunchShape& shape);

} // namespace clscope
