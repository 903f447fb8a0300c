// The transfer bound of clscope-cli bench: host-to-device bandwidth from pinned memory,
// measured once per OpenCL GPU and process.
#include "gpu/bench.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/session.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

namespace clscope {

double pinnedUploadGBps(const DeviceInfo& device) {
    if (device.type != "GPU") return 0; // the host, or PoCL's buffers in host memory
    static std::mutex mutex;
    static std::map<std::string, double> measured;
    std::lock_guard lock(mutex);
    if (const auto it = measured.find(device.spec); it != measured.end()) return it->second;
    constexpr std::size_t bytes = std::size_t(256) << 20;
    ClSession session(device);
    double best = 0;
    try {
        const cl::Buffer target = session.allocate(bytes, "bench bandwidth probe");
        const std::shared_ptr<PinnedBlock> pinned = session.device().pinned(bytes, session.queue());
        for (int i = 0; i < 4; ++i) { // the first one warms up
            const auto start = std::chrono::steady_clock::now();
            session.queue().enqueueWriteBuffer(target, CL_TRUE, 0, bytes, pinned->host);
            const std::chrono::duration<double> s = std::chrono::steady_clock::now() - start;
            if (i > 0) best = std::max(best, static_cast<double>(bytes) / s.count() / 1e9);
        }
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "bench: measuring the host-to-device bandwidth", device);
    }
    return measured[device.spec] = best;
}

} // namespace clscope
