// Kernels that never finish (a user's program: an endless loop, a wait on a flag nothing sets):
// while a KernelWatch lives, every kernel a ClSession launches is watched, and one that has been
// submitted or running for `seconds` without completing calls the watch's handler from the
// watch's thread. The host thread that waits for such a kernel cannot be woken (OpenCL has no
// way to stop a running kernel), so a handler ends the process (the CLI: kernelTimeoutExit).
#pragma once
#include "gpu/runtime/opencl.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace clscope {

class KernelWatch {
  public:
    // Called once, from the watch's thread: the kernel's label and the limit in seconds.
    using Handler = std::function<void(const std::string& label, double seconds)>;
    // Watches every kernel launched from now until destruction, or until its handler is
    // called. One watch at a time: one made while another watches stays idle (another may
    // start once the first has called its handler).
    KernelWatch(double seconds, Handler handler);
    ~KernelWatch();
    KernelWatch(const KernelWatch&) = delete;
    KernelWatch& operator=(const KernelWatch&) = delete;

    // ClSession's report of a kernel it enqueued on `device` (a device spec); nothing happens
    // while no watch lives. The handler's label is "'LABEL' on DEVICE".
    static void launched(const cl::Event& event, const std::string& label,
                         const std::string& device);

  private:
    struct Watched {
        cl::Event event;
        std::string label, device;
    };
    void add(const cl::Event& event, const std::string& label, const std::string& device);
    void stopWatching(); // no longer the process's watch
    void run();
    // The oldest kernel not complete, or null; drops the complete ones (under mutex_).
    const Watched* oldestUnfinished();

    const double seconds_;
    const Handler handler_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Watched> kernels_;
    bool stop_ = false;
    std::thread thread_;
};

// "kernel LABEL did not finish in S s": what every handler says first.
std::string kernelTimeoutText(const std::string& label, double seconds);

// The CLI's handler: "clscope-cli: device error: kernel LABEL did not finish in S s ..." on
// stderr, the registered temporary outputs removed (nothing half-written), exit code 4.
void kernelTimeoutExit(const std::string& label, double seconds);

} // namespace clscope
