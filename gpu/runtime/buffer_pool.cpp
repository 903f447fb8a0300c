#include "gpu/runtime/buffer_pool.hpp"

#include <cstdlib>
#include <string>

namespace clscope {

namespace {

std::string mode() {
    const char* env = std::getenv("CLSCOPE_BUFFER_POOL");
    return env ? env : "";
}

} // namespace

BufferPool::BufferPool(bool gpu, std::size_t globalMemBytes)
    : gpu_(gpu), cap_(globalMemBytes / 4) {}

bool BufferPool::enabled() const {
    const std::string m = mode();
    return m == "1" || (m != "0" && gpu_);
}

bool BufferPool::poisons() const {
    return mode() == "1";
}

cl::Buffer BufferPool::take(std::size_t bytes, cl_mem_flags flags) {
    std::vector<SizedBuffer> dropped; // released outside the lock
    std::lock_guard lock(mutex_);
    for (auto it = buffers_.begin(); it != buffers_.end(); ++it)
        if (it->bytes == bytes && it->flags == flags) {
            cl::Buffer found = std::move(it->buffer);
            kept_ -= bytes, ++reused_;
            buffers_.erase(it);
            return found;
        }
    dropped.swap(buffers_);
    kept_ = 0;
    return {};
}

void BufferPool::give(cl::Buffer&& buffer, std::size_t bytes, cl_mem_flags flags) {
    if (!enabled() || !buffer.get()) return;
    std::lock_guard lock(mutex_);
    if (kept_ + bytes > cap_) return;
    kept_ += bytes;
    buffers_.push_back({std::move(buffer), bytes, flags});
}

std::size_t BufferPool::reused() const {
    std::lock_guard lock(mutex_);
    return reused_;
}

} // namespace clscope
