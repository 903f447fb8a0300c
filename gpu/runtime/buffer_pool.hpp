// Device buffers kept from one session for the next (gpu/runtime/session.hpp). Allocating and
// freeing the GiB buffers of a large run cost milliseconds of wall time per run on NVIDIA's OpenCL;
// a repeated run (bench repeats, the workbench's re-runs) takes its buffers back instead.
#pragma once
#include "gpu/runtime/opencl.hpp"

#include <cstddef>
#include <mutex>
#include <vector>

namespace clscope {

// A device buffer with what an allocation of it asked for.
struct SizedBuffer {
    cl::Buffer buffer;
    std::size_t bytes = 0;
    cl_mem_flags flags = 0;
};

class BufferPool {
  public:
    BufferPool(bool gpu, std::size_t globalMemBytes);

    // CLSCOPE_BUFFER_POOL (read at each call): "0" off, "1" on for every device with reused
    // buffers poisoned (filled with 0xA5, so a kernel that expects zeroed memory fails its
    // test); unset: on for GPUs only (a CPU device's buffers are host memory, which issue 13
    // bounds per run).
    bool enabled() const;
    bool poisons() const;
    // A kept buffer of exactly `bytes` and `flags` (null when none). A miss releases every
    // kept buffer, so that a run of another shape finds the device's memory free.
    cl::Buffer take(std::size_t bytes, cl_mem_flags flags);
    // Keep `buffer` when nothing else holds it and the pool stays under its cap (a quarter of
    // the device's memory); otherwise it is released as before.
    void give(cl::Buffer&& buffer, std::size_t bytes, cl_mem_flags flags);
    // Buffers handed out again since the start.
    std::size_t reused() const;

  private:
    bool gpu_;
    std::size_t cap_ = 0, kept_ = 0, reused_ = 0;
    mutable std::mutex mutex_;
    std::vector<SizedBuffer> buffers_;
};

} // namespace clscope
