// Frames recycled between a stream's decoding threads and its reader: a frame given back is
// handed out again for the next image of the same dtype and shape, so decoding a series touches
// no fresh memory (a new 36 MB frame costs its page faults and zero fill, which bound a pool of
// decoding threads near 4 GB/s). Holds at most `keep` frames; thread-safe.
#pragma once
#include "core/array.hpp"

#include <mutex>
#include <vector>

namespace clscope::stream {

class FramePool {
  public:
    explicit FramePool(std::size_t keep) : keep_(keep) {}
    // A frame of this dtype and shape, its content undefined (to be overwritten whole).
    Array take(DType dtype, const Shape& shape) {
        {
            std::lock_guard lock(mutex_);
            for (auto it = free_.begin(); it != free_.end(); ++it)
                if (it->dtype() == dtype && it->shape() == shape) {
                    Array a = std::move(*it);
                    free_.erase(it);
                    return a;
                }
        }
        return Array(dtype, shape);
    }
    void give(Array&& frame) {
        std::lock_guard lock(mutex_);
        if (free_.size() < keep_) free_.push_back(std::move(frame));
    }

  private:
    const std::size_t keep_;
    std::mutex mutex_;
    std::vector<Array> free_;
};

} // namespace clscope::stream
