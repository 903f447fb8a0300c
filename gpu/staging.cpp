#include "gpu/staging.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

namespace clscope {

void parallelCopy(void* to, const void* from, std::size_t bytes) {
    constexpr std::size_t perThread = std::size_t(2) << 20;
    const std::size_t threads = std::clamp<std::size_t>(
        std::min<std::size_t>(std::thread::hardware_concurrency(), bytes / perThread), 1, 16);
    if (threads == 1) {
        std::memcpy(to, from, bytes);
        return;
    }
    const std::size_t share = (bytes + threads - 1) / threads;
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) {
        const std::size_t begin = std::min(bytes, t * share), end = std::min(bytes, begin + share);
        pool.emplace_back([=] {
            std::memcpy(static_cast<char*>(to) + begin, static_cast<const char*>(from) + begin,
                        end - begin);
        });
    }
    std::memcpy(to, from, std::min(bytes, share));
    for (std::thread& t : pool)
        t.join();
}

StagedUpload::StagedUpload(ClSession& session, std::size_t pieceBytes)
    : session_(session), piece_(std::max<std::size_t>(pieceBytes, 4096)) {
    const auto start = std::chrono::steady_clock::now();
    try {
        for (int i = 0; i < 2; ++i) {
            pinned_[i] = session_.allocate(piece_, "pinned staging",
                                           CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY);
            host_[i] =
                session_.queue().enqueueMapBuffer(pinned_[i], CL_TRUE, CL_MAP_WRITE, 0, piece_);
        }
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "mapping pinned staging memory", session_.info());
    }
    session_.timings().add(
        "pinned staging allocation (host)",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
}

StagedUpload::~StagedUpload() {
    for (int i = 0; i < 2; ++i) {
        try {
            if (busy_[i]()) busy_[i].wait();
            if (host_[i]) session_.queue().enqueueUnmapMemObject(pinned_[i], host_[i]);
        } catch (const cl::Error&) {
        }
    }
    try {
        session_.queue().finish();
    } catch (const cl::Error&) {
    }
}

void StagedUpload::upload(const cl::Buffer& buffer, std::size_t offset, const void* data,
                          std::size_t bytes, const std::string& label) {
    try {
        for (std::size_t done = 0; done < bytes;) {
            const int slot = next_;
            next_ ^= 1;
            if (busy_[slot]()) busy_[slot].wait(); // its previous DMA has read the half
            const std::size_t n = std::min(piece_, bytes - done);
            const auto start = std::chrono::steady_clock::now();
            parallelCopy(host_[slot], static_cast<const char*>(data) + done, n);
            session_.timings().add(
                "copy to pinned staging (host)",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
            cl::Event event;
            session_.queue().enqueueWriteBuffer(buffer, CL_FALSE, offset + done, n, host_[slot],
                                                nullptr, &event);
            session_.queue().flush();
            session_.record(event, label);
            busy_[slot] = event;
            done += n;
        }
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, label, session_.info());
    }
}

} // namespace clscope
