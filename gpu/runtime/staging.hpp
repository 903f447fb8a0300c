// Streaming uploads from ordinary (pageable) host memory at pinned-memory speed, overlapped
// with the kernels. Chunk i is copied by a pool of host threads into pinned staging block
// i % depth, piece by piece, each piece written by DMA on a transfer queue of its own into
// device buffer i % depth while the host copies the next; the session's (compute) queue waits
// for that upload only where chunk i is used. So the host copy of chunk i + 1, the DMA of chunk
// i + 1 and the kernels of chunk i run at the same time. The pinned
// staging is kept by the device for the life of the process (pinning costs tens of ms), and the
// destructor waits for every copy, so no error path frees memory a queue still reads.
// A chunk that already lies in the device's pinned memory (ClDevice::holdsPinned: an array
// made under pinnedInputScope) goes up by DMA straight from there, without the host copy; one
// the caller keeps for the upload's life (sendInPlace) is queued without waiting, and a ring
// of four buffers lets such DMAs run two chunks ahead of the kernels, so the DMA engine never
// waits for the host between chunks.
#pragma once
#include "core/array.hpp"
#include "gpu/runtime/session.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clscope {

class StreamUpload {
  public:
    // chunkBytes: the largest chunk sent; `depth` device buffers (and staging blocks, made at
    // their first copy) of it: chunk i uses buffer i % depth.
    StreamUpload(ClSession& session, std::size_t chunkBytes, const std::string& what,
                 std::size_t depth = 2);
    ~StreamUpload();
    StreamUpload(const StreamUpload&) = delete;
    StreamUpload& operator=(const StreamUpload&) = delete;

    // Copy chunk `index` (bytes from data: reusable when this returns) towards buffer(index);
    // from the device's pinned memory the DMA reads data itself and send waits for it.
    // Chunks go in order 0, 1, 2, ...; chunk i's DMA is queued once the session's queue has
    // released chunk i - depth (which used the same device buffer): the host waits for that.
    void send(std::size_t index, const void* data, std::size_t bytes, const std::string& label);
    // The same for data that stays untouched until this upload is destroyed (a run's input
    // stack): from the device's pinned memory the DMA is queued and this returns at once.
    void sendInPlace(std::size_t index, const void* data, std::size_t bytes,
                     const std::string& label);
    // `count` rows of `bytes` bytes, `pitch` bytes apart in the caller's memory (a band of rows
    // of every frame of a block), packed in buffer(index): from the device's pinned memory one
    // rectangular DMA (queued, inPlace as sendInPlace), else copied row by row into staging.
    struct Rows {
        std::size_t count = 0, bytes = 0, pitch = 0;
    };
    void sendRows(std::size_t index, const void* data, Rows rows, const std::string& label,
                  bool inPlace);
    std::size_t depth() const { return device_.size(); }
    // Chunks sent ahead of the kernels (streamChunks): depth - 2, at least 1. A chunk's DMA
    // is queued once the host knows its buffer free; the chunks the kernels run and the one
    // before them (whose completion the caller may not yet have waited for) keep theirs.
    std::size_t ahead() const { return std::max<std::size_t>(depth(), 3) - 2; }
    // Or in two steps, without a copy of the caller's: the pinned block chunk `index` goes up
    // from (once chunk index - depth's DMA has read it), to be filled, then its first `bytes` sent.
    void* staging(std::size_t index);
    void sendStaged(std::size_t index, std::size_t bytes, const std::string& label);
    // The session's queue waits for chunk index's upload from here on; its device buffer.
    const cl::Buffer& acquire(std::size_t index);
    // Everything reading chunk index has been enqueued on the session's queue.
    void release(std::size_t index);

  private:
    static constexpr std::size_t pieceBytes = std::size_t(32) << 20;
    void enqueue(std::size_t index, const void* data, std::size_t bytes, const std::string& label,
                 bool inPlace);
    void timeUpload(std::size_t slot);
    void stageRows(std::size_t slot, const void* data, Rows rows);
    void waitReleased(std::size_t slot);
    void* stagingBlock(std::size_t slot);
    ClSession& session_;
    cl::CommandQueue transfer_;
    std::size_t bytes_;
    std::vector<cl::Buffer> device_;
    std::vector<std::shared_ptr<PinnedBlock>> pinned_; // made at a slot's first copy
    std::vector<cl::Event> uploaded_, released_;
    std::vector<std::vector<cl::Event>> pieces_; // DMA events of each slot, for the timings
    std::vector<std::string> label_;
};

// Chunks 0 .. count - 1 through `upload` while the kernels run: send(i) sends chunk i (send or
// sendInPlace), enqueue(i, buffer) queues chunk i's kernels on the session's queue, drain(i)
// waits for what they give back. Chunks are sent upload.ahead() ahead of the kernels, after
// chunk i's kernels are queued: the next chunks' host copies and DMAs run while they do.
// `sent`: chunks 0 .. sent - 1 the caller sent already (e.g. while it made its buffers).
void streamChunks(StreamUpload& upload, std::size_t count,
                  const std::function<void(std::size_t)>& send,
                  const std::function<void(std::size_t, const cl::Buffer&)>& enqueue,
                  const std::function<void(std::size_t)>& drain, std::size_t sent = 0);
// The ring depth for chunks of [data, data + bytes): 4 where the device's DMA reads them in
// place (sendInPlace queues them two ahead), else 2 (the host copy into staging bounds the
// stream).
std::size_t uploadDepth(ClSession& session, const void* data, std::size_t bytes);

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
