// The kernel lab's cold cache (`clscope-cli lab --cold-cache`): a scratch buffer of the device's
// global memory cache size (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; 64 MiB where the device says 0)
// written with a new pattern before each timed run, so a run finds its data out of the cache
// rather than left there by the previous run.
#pragma once
#include "gpu/runtime/device_info.hpp"

#include <cstdint>
#include <memory>

namespace clscope {

class CacheFlush {
  public:
    explicit CacheFlush(const DeviceInfo& device);
    ~CacheFlush();
    CacheFlush(const CacheFlush&) = delete;
    CacheFlush& operator=(const CacheFlush&) = delete;

    std::uint64_t bytes() const;
    // Writes the whole buffer on the device and waits for it.
    void flush();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace clscope
