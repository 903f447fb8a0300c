#include "gpu/runtime/kernel_watch.hpp"

#include "core/errors.hpp"
#include "core/temp_file.hpp"
#include "gpu/runtime/compiler_output.hpp"

#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace clscope {

namespace {

std::mutex activeMutex;
KernelWatch* active = nullptr; // the watch that watches, if any

using Clock = std::chrono::steady_clock;

// The command's execution status (the C call: no exception on the watch's thread); an event
// that cannot be asked counts as complete.
cl_int statusOf(const cl::Event& event) {
    cl_int status = CL_COMPLETE;
    if (clGetEventInfo(event(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                       nullptr) != CL_SUCCESS)
        return CL_COMPLETE;
    return status;
}

// Whether the device has the command (submitted or running), not just the queue.
bool started(cl_int status) {
    return status == CL_SUBMITTED || status == CL_RUNNING;
}

} // namespace

KernelWatch::KernelWatch(double seconds, Handler handler)
    : seconds_(seconds), handler_(std::move(handler)) {
    {
        const std::lock_guard lock(activeMutex);
        if (active) return; // another watch watches every kernel: this one stays idle
        active = this;
    }
    thread_ = std::thread([this] { run(); });
}

KernelWatch::~KernelWatch() {
    stopWatching();
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void KernelWatch::stopWatching() {
    const std::lock_guard lock(activeMutex);
    if (active == this) active = nullptr;
}

void KernelWatch::launched(const cl::Event& event, const std::string& label,
                           const std::string& device) {
    const std::lock_guard lock(activeMutex);
    if (active) active->add(event, label, device);
}

void KernelWatch::add(const cl::Event& event, const std::string& label, const std::string& device) {
    const std::lock_guard lock(mutex_);
    kernels_.push_back({event, label, device});
}

const KernelWatch::Watched* KernelWatch::oldestUnfinished() {
    while (!kernels_.empty()) {
        if (statusOf(kernels_.front().event) > CL_COMPLETE) return &kernels_.front();
        kernels_.pop_front(); // complete, or ended with an error the host reports
    }
    return nullptr;
}

// Every 50 ms: the oldest kernel not complete; its clock starts when the device has it and
// starts again whenever another kernel becomes the oldest.
void KernelWatch::run() {
    std::unique_lock lock(mutex_);
    cl_event timed = nullptr;
    Clock::time_point since;
    while (!wake_.wait_for(lock, std::chrono::milliseconds(50), [this] { return stop_; })) {
        const Watched* oldest = oldestUnfinished();
        if (!oldest || !started(statusOf(oldest->event))) {
            timed = nullptr;
            continue;
        }
        if (oldest->event() != timed) timed = oldest->event(), since = Clock::now();
        if (std::chrono::duration<double>(Clock::now() - since).count() < seconds_) continue;
        const std::string label = "'" + oldest->label + "' on " + oldest->device;
        lock.unlock();
        stopWatching(); // a new watch may start (the host thread waiting here may never return)
        handler_(label, seconds_);
        return;
    }
}

std::string kernelTimeoutText(const std::string& label, double seconds) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", seconds);
    return "kernel " + label + " did not finish in " + limit + " s";
}

void kernelTimeoutExit(const std::string& label, double seconds) {
    const std::string text = "clscope-cli: device error: " + kernelTimeoutText(label, seconds) +
                             " (--kernel-timeout); stopped, nothing written (OpenCL cannot "
                             "stop a running kernel: the process ends)\n";
    // On the terminal although another thread may be building a program (stderr then goes to
    // CompilerOutput's file); write(2) only: no stdio lock, which another thread may hold.
    CompilerOutput::restoreTerminal();
    [[maybe_unused]] const auto written = ::write(2, text.data(), text.size());
    removeRegisteredTemporaries();
    ::_exit(ExitDevice);
}

} // namespace clscope
