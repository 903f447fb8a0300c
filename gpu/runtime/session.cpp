#include "gpu/runtime/session.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "gpu/runtime/arch_specific.hpp"
#include "gpu/runtime/kernel_watch.hpp"
#include "gpu/runtime/session_trace.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <numeric>

namespace clscope {

namespace {
std::string dims(const std::vector<std::size_t>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) s += 'x';
        s += std::to_string(v[i]);
    }
    return s;
}

} // namespace

ClSession::ClSession(const DeviceInfo& info) : device_(ClDevice::get(info)) {
    try {
        queue_ = cl::CommandQueue(device_->context(), device_->device(), CL_QUEUE_PROFILING_ENABLE);
        trace_ = SessionTrace::fromEnvironment(queue_, info.spec + " (" + info.name + ")");
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "creating a command queue", info);
    }
}

ClSession::~ClSession() {
    try {
        queue_.finish();
    } catch (...) {
        // Nothing to report from a destructor; the queue is done with the host memory.
        return;
    }
    for (auto* list : {&spares_, &allocated_})
        for (SizedBuffer& a : *list)
            if (soleHolder(a.buffer))
                device_->buffers().give(std::move(a.buffer), a.bytes, a.flags);
}

// Whether only the session's own handle holds buffer (the run has let it go).
bool ClSession::soleHolder(const cl::Buffer& buffer) {
    try {
        return buffer.getInfo<CL_MEM_REFERENCE_COUNT>() == 1;
    } catch (const cl::Error&) {
        return false;
    }
}

// The device's program; a build from source is timed as "program builds (host)", a load from
// the disk cache of compiled programs as "program loads (host, disk cache)", a program of the
// process's cache not at all.
cl::Program ClSession::timedProgram(const std::string& source, const std::string& options,
                                    const TunableValues& values) {
    const auto start = std::chrono::steady_clock::now();
    const FetchedProgram p = device_->fetch(source, options, values);
    if (p.origin != ProgramOrigin::memory)
        timings_.add(p.origin == ProgramOrigin::disk ? "program loads (host, disk cache)"
                                                     : "program builds (host)",
                     msSince(start));
    return p.program;
}

cl::Program ClSession::program(const ProgramRecipe& recipe, const TunableValues& values) {
    const TunableValues resolved = recipe.resolve(values);
    return timedProgram(recipe.source(), recipe.options(resolved), resolved);
}

cl::Kernel ClSession::kernel(const ProgramRecipe& recipe, const TunableValues& values,
                             const std::string& kernelName) {
    cl::Program p = program(recipe, values);
    try {
        return cl::Kernel(p, kernelName.c_str());
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "creating kernel " + kernelName + " of program " + recipe.name(),
                           info());
    }
}

std::vector<std::size_t> checkLaunch(const DeviceInfo& device, std::size_t kernelMaxGroup,
                                     std::uint64_t kernelLocalMem, const std::string& label,
                                     const LaunchShape& shape) {
    const std::string where =
        "launch '" + label + "' on " + device.spec + " (" + device.name + "): ";
    if (shape.global.empty() || shape.global.size() > 3 ||
        shape.local.size() != shape.global.size())
        throw DeviceError(where + "global and local sizes need the same 1-3 dimensions");
    std::size_t groupSize = 1;
    for (std::size_t d = 0; d < shape.local.size(); ++d) {
        if (shape.local[d] == 0)
            throw DeviceError(where + "local size 0 in dimension " + std::to_string(d));
        if (d < device.maxWorkItemSizes.size() && shape.local[d] > device.maxWorkItemSizes[d])
            throw DeviceError(where + "local size " + dims(shape.local) + " exceeds the device's " +
                              std::to_string(device.maxWorkItemSizes[d]) + " in dimension " +
                              std::to_string(d));
        groupSize *= shape.local[d];
    }
    const std::size_t limit = std::min(device.maxWorkGroupSize, kernelMaxGroup);
    if (groupSize > limit)
        throw DeviceError(where + "work-group of " + std::to_string(groupSize) + " items (" +
                          dims(shape.local) + ") exceeds the limit of " + std::to_string(limit));
    if (kernelLocalMem > device.localMemBytes)
        throw DeviceError(where + "needs " + std::to_string(kernelLocalMem) +
                          " bytes of local memory, device has " +
                          std::to_string(device.localMemBytes));
    std::vector<std::size_t> rounded(shape.global.size());
    for (std::size_t d = 0; d < rounded.size(); ++d)
        rounded[d] = (shape.global[d] + shape.local[d] - 1) / shape.local[d] * shape.local[d];
    return rounded;
}

void ClSession::launch(cl::Kernel& kernel, const std::string& label, const LaunchShape& shape) {
    try {
        const cl::Device& dev = device_->device();
        const std::size_t kernelMax = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev);
        const std::uint64_t localMem = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dev);
        const auto global = checkLaunch(info(), kernelMax, localMem, label, shape);
        auto range = [](const std::vector<std::size_t>& v) {
            return v.size() == 1   ? cl::NDRange(v[0])
                   : v.size() == 2 ? cl::NDRange(v[0], v[1])
                                   : cl::NDRange(v[0], v[1], v[2]);
        };
        cl::Event event;
        queue_.enqueueNDRangeKernel(kernel, cl::NullRange, range(global), range(shape.local),
                                    nullptr, &event);
        record(event, label, true);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "launch '" + label + "'", info());
    }
}

namespace {

// CLSCOPE_POISON_BUFFERS=1 (the kernel lab's runs): every buffer handed out is filled with 0xFF
// bytes (NaN as float or double, -1 or the largest value as an integer), so a kernel that leaves
// an output unwritten cannot pass on what a previous run left there.
cl::Buffer poisoned(ClSession& session, cl::Buffer buffer, std::size_t bytes) {
    const char* mode = std::getenv("CLSCOPE_POISON_BUFFERS");
    if (!mode || std::string(mode) != "1") return buffer;
    try {
        cl::Event event;
        session.queue().enqueueFillBuffer(buffer, cl_uchar(0xFF), 0, bytes, nullptr, &event);
        // Done before the buffer is handed out: another queue (a run's upload queue) may write
        // it next, unordered with this one (multi-tau's frames were overwritten by the fill
        // under load: wrong g2 in the lab's check, 1 run in 3 beside another test here).
        event.wait();
        session.record(event, "poison buffer");
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "poisoning a buffer", session.info());
    }
    return buffer;
}

} // namespace

cl::Buffer ClSession::allocate(std::size_t bytes, const std::string& what, cl_mem_flags flags) {
    if (bytes > info().maxAllocBytes)
        throw DeviceError("buffer '" + what + "' of " + std::to_string(bytes >> 20) +
                          " MiB exceeds the maximum allocation of " +
                          std::to_string(info().maxAllocBytes >> 20) + " MiB on " + info().spec +
                          " (" + info().name + ")");
    const std::size_t size = std::max<std::size_t>(bytes, 1);
    if (!device_->buffers().enabled()) return poisoned(*this, newBuffer(size, what, flags), size);
    cl::Buffer buffer = reusedBuffer(size, flags);
    if (!buffer.get()) {
        spares_.clear(); // their memory for the new buffer
        buffer = newBuffer(size, what, flags);
    }
    allocated_.push_back({buffer, size, flags});
    return poisoned(*this, std::move(buffer), size);
}

// A buffer of exactly `bytes` and `flags` from the session's spares, else from the device's
// pool (null when neither has one), poisoned when the pool says so.
cl::Buffer ClSession::reusedBuffer(std::size_t bytes, cl_mem_flags flags) {
    // Buffers the run has let go of (only the session holds them) become the session's
    // spares: its in-order queue may hand them out again at once.
    for (auto it = allocated_.begin(); it != allocated_.end();)
        if (soleHolder(it->buffer))
            spares_.push_back(std::move(*it)), it = allocated_.erase(it);
        else
            ++it;
    BufferPool& pool = device_->buffers();
    cl::Buffer buffer;
    const auto spare = std::find_if(spares_.begin(), spares_.end(), [&](const SizedBuffer& a) {
        return a.bytes == bytes && a.flags == flags;
    });
    if (spare != spares_.end())
        buffer = std::move(spare->buffer), spares_.erase(spare);
    else
        buffer = pool.take(bytes, flags);
    if (buffer.get() && pool.poisons()) {
        enqueueRecorded("poison reused buffer", [&](cl::Event* e) {
            queue_.enqueueFillBuffer(buffer, cl_uchar(0xA5), 0, bytes, nullptr, e);
        });
        queue_.finish(); // before another queue may write it (see poisoned())
    }
    return buffer;
}

cl::Buffer ClSession::newBuffer(std::size_t bytes, const std::string& what, cl_mem_flags flags) {
    try {
        return cl::Buffer(context(), flags, bytes);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "allocating buffer '" + what + "'", info());
    }
}

template <class Enqueue>
void ClSession::enqueueRecorded(const std::string& label, Enqueue&& enqueue) {
    try {
        cl::Event event;
        enqueue(&event);
        record(event, label);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, label, info());
    }
}

void ClSession::upload(const cl::Buffer& buffer, const void* data, std::size_t bytes,
                       const std::string& label) {
    if (bytes == 0) return;
    enqueueRecorded(label, [&](cl::Event* e) {
        // Blocking, so that no error path can free `data` while the queue still reads it.
        queue_.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, data, nullptr, e);
    });
}

void ClSession::download(const cl::Buffer& buffer, void* data, std::size_t bytes,
                         const std::string& label) {
    if (bytes == 0) return;
    enqueueRecorded(label, [&](cl::Event* e) {
        queue_.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, data, nullptr, e);
    });
}

namespace {

// Zeros from `offset` on in the widest pattern that divides both the offset and the size: on
// NVIDIA (H100, 2026-11-28) a fill with a 1-byte pattern wrote 350-420 GB/s.
void enqueueZeros(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t offset,
                  std::size_t bytes, cl::Event* e) {
    const std::size_t both = offset | bytes;
    if (both % 16 == 0)
        queue.enqueueFillBuffer(buffer, cl_uint4{}, offset, bytes, nullptr, e);
    else if (both % 8 == 0)
        queue.enqueueFillBuffer(buffer, cl_ulong(0), offset, bytes, nullptr, e);
    else if (both % 4 == 0)
        queue.enqueueFillBuffer(buffer, cl_uint(0), offset, bytes, nullptr, e);
    else
        queue.enqueueFillBuffer(buffer, cl_uchar(0), offset, bytes, nullptr, e);
}

} // namespace

void ClSession::fill(const cl::Buffer& buffer, std::size_t bytes, const std::string& label,
                     std::size_t offset) {
    // In pieces of at most 1 GiB: on NVIDIA (H100, 2026-11-27) the sparse rings' fills of 2.2
    // GB and more were followed by OpenCL error -9999 at the next program build.
    constexpr std::size_t piece = std::size_t(1) << 30;
    for (std::size_t at = 0; at < bytes; at += piece)
        enqueueRecorded(label, [&](cl::Event* e) {
            enqueueZeros(queue_, buffer, offset + at, std::min(piece, bytes - at), e);
        });
}

void ClSession::copy(const cl::Buffer& from, std::size_t fromOffset, const cl::Buffer& to,
                     std::size_t toOffset, std::size_t bytes, const std::string& label) {
    if (bytes == 0) return;
    enqueueRecorded(label, [&](cl::Event* e) {
        queue_.enqueueCopyBuffer(from, to, fromOffset, toOffset, bytes, nullptr, e);
    });
}

void ClSession::record(const cl::Event& event, const std::string& label, bool kernel) {
    pending_.push_back({event, label, kernel});
    if (kernel) KernelWatch::launched(event, label, info().spec);
}

void ClSession::timed(const std::string& label, std::uint64_t startNs, std::uint64_t endNs,
                      bool kernel) {
    timings_.add(label, static_cast<double>(endNs - startNs) * 1e-6, kernel);
    if (trace_) trace_->command(label, startNs, endNs, kernel);
}

void ClSession::mark(const std::string& label) {
    if (trace_) trace_->mark(label);
}

void ClSession::finish() {
    try {
        queue_.finish();
    } catch (const cl::Error& e) {
        pending_.clear();
        rethrowDeviceError(e, "waiting for the queue", info());
    }
    settle(pending_.size());
}

void ClSession::settle(std::size_t count) {
    count = std::min(count, pending_.size());
    std::string what;
    try {
        for (std::size_t i = 0; i < count; ++i) {
            auto& [event, label, kernel] = pending_[i];
            what = "timing " + label;
            event.wait(); // NVIDIA: status and profiling settle once the host waited on it
            const auto start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
            const auto end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
            timed(label, start, end, kernel);
        }
        pending_.erase(pending_.begin(), pending_.begin() + std::ptrdiff_t(count));
    } catch (const cl::Error& e) {
        pending_.clear();
        rethrowDeviceError(e, what, info());
    }
}

} // namespace clscope
