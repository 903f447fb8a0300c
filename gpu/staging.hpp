// Streaming uploads from ordinary (pageable) host memory at pinned-memory speed, overlapped
// with the kernels. Chunk i is copied by a pool of host threads into pinned staging half i % 2,
// piece by piece, each piece written by DMA on a transfer queue of its own into device buffer
// i % 2 while the host copies the next; the session's (compute) queue waits for that upload
// only where chunk i is used. So the host copy of chunk i + 1, the DMA of chunk i + 1 and the
// kernels of chunk i run at the same time. The pinned
// staging is kept by the device for the life of the process (pinning costs tens of ms), and the
// destructor waits for every copy, so no error path frees memory a queue still reads.
// A chunk that already lies in the device's pinned memory (ClDevice::holdsPinned: an array
// made under pinnedInputScope) goes up by DMA straight from there, without the host copy.
#pragma once
#include "core/array.hpp"
#include "gpu/session.hpp"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace clscope {

class StreamUpload {
  public:
    // chunkBytes: the largest chunk sent; two device buffers and two staging halves of it.
    StreamUpload(ClSession& session, std::size_t chunkBytes, const std::string& what);
    ~StreamUpload();
    StreamUpload(const StreamUpload&) = delete;
    StreamUpload& operator=(const StreamUpload&) = delete;

    // Copy chunk `index` (bytes from data: reusable when this returns) towards buffer(index);
    // from the device's pinned memory the DMA reads data itself and send waits for it.
    // Chunks go in order 0, 1, 2, ...; chunk i's DMA waits until the session's queue has
    // released chunk i - 2 (which used the same device buffer).
    void send(std::size_t index, const void* data, std::size_t bytes, const std::string& label);
    // Or in two steps, without a copy of the caller's: the pinned half chunk `index` goes up
    // from (once chunk index - 2's DMA has read it), to be filled, then its first `bytes` sent.
    void* staging(std::size_t index);
    void sendStaged(std::size_t index, std::size_t bytes, const std::string& label);
    // The session's queue waits for chunk index's upload from here on; its device buffer.
    const cl::Buffer& acquire(std::size_t index);
    // Everything reading chunk index has been enqueued on the session's queue.
    void release(std::size_t index);

  private:
    static constexpr std::size_t pieceBytes = std::size_t(32) << 20;
    void timeUpload(std::size_t slot);
    ClSession& session_;
    cl::CommandQueue transfer_;
    std::size_t bytes_;
    std::array<cl::Buffer, 2> device_;
    std::array<std::shared_ptr<PinnedBlock>, 2> pinned_;
    std::array<cl::Event, 2> uploaded_, released_;
    std::array<std::vector<cl::Event>, 2> pieces_; // DMA events of each half, for the timings
    std::array<std::string, 2> label_;
};

// Pinned host memory of device's context for arrays (ClDevice::pinned: kept for reuse when
// the array goes); none (the heap) past the device's largest buffer or when pinning fails.
HostAllocator pinnedAllocator(const DeviceInfo& device);
// Frames read or made while the result lives land in pinned memory of the first device when it
// is a GPU (arrays of at least minBytes on this thread), so uploads skip the staging copy;
// nothing for other devices or when CLSCOPE_PINNED_INPUT=0 (the staging copy, to compare).
std::unique_ptr<HostAllocatorScope> pinnedInputScope(const std::vector<DeviceInfo>& devices,
                                                     std::size_t minBytes = std::size_t(16) << 20);

// memcpy over a pool of host threads kept for the process (large copies only; small ones on
// the calling thread).
void parallelCopy(void* to, const void* from, std::size_t bytes);

} // namespace clscope
