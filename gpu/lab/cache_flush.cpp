#include "gpu/lab/cache_flush.hpp"

#include "gpu/runtime/cl_device.hpp"

namespace clscope {

namespace {

constexpr std::uint64_t floorBytes = 64ull << 20; // when the device names no cache size

} // namespace

struct CacheFlush::State {
    DeviceInfo info;
    cl::CommandQueue queue;
    cl::Buffer scratch;
    std::uint64_t bytes = 0;
    cl_uint pattern = 0;
};

CacheFlush::CacheFlush(const DeviceInfo& device) : state_(std::make_unique<State>()) {
    const auto cl = ClDevice::get(device);
    State& s = *state_;
    s.info = device;
    try {
        const std::uint64_t cache = cl->device().getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
        s.bytes = (cache > 0 ? cache : floorBytes) / sizeof(cl_uint) * sizeof(cl_uint);
        s.queue = cl::CommandQueue(cl->context(), cl->device());
        s.scratch = cl::Buffer(cl->context(), CL_MEM_READ_WRITE, s.bytes);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "making the cold-cache scratch buffer", device);
    }
}

CacheFlush::~CacheFlush() = default;

std::uint64_t CacheFlush::bytes() const {
    return state_->bytes;
}

void CacheFlush::flush() {
    State& s = *state_;
    try {
        s.queue.enqueueFillBuffer(s.scratch, ++s.pattern, 0, s.bytes);
        s.queue.finish();
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "writing the cold-cache scratch buffer", s.info);
    }
}

} // namespace clscope
