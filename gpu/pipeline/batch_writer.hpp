// A batch of a streaming run (gpu/pipeline/stream_pipeline.hpp): taken from the feed, then its
// frames written into a stage's device buffer in the order taken — compressed ones decoded on
// the device (gpu/decode), the others uploaded as received, or every frame decoded on the host
// when the device cannot or is told not to (CLSCOPE_STREAM_DECODE=host).
#pragma once
#include "core/array.hpp"
#include "gpu/decode/decoder.hpp"
#include "gpu/pipeline/frame_feed.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clscope {
class ClSession;
}

namespace clscope::pipeline {

class BatchWriter {
  public:
    BatchWriter(ClSession& session, const FrameFormat& format);

    // The batch's frames into `out`, frame i at i * frameBytes: runs of compressed frames
    // decoded on the device, the others uploaded as received; every frame through the host
    // decoder when the device does not decode.
    void write(std::vector<stream::ReceivedFrame>& frames, const cl::Buffer& out);
    // The host part of a batch's decode on the device, when every frame of it came compressed
    // and the device decodes: its number for enqueue() and check(), else none (write() then).
    std::optional<std::size_t> prepare(const std::vector<stream::ReceivedFrame>& frames);
    // A prepared batch decoded into `out` (its kernel queued), or on the host when the device
    // cannot (e.g. blocks beyond its local memory).
    void enqueue(std::size_t batch, std::vector<stream::ReceivedFrame>& frames,
                 const cl::Buffer& out);
    void check(std::size_t batch) { decoder_.check(batch); }
    // A stacked feed's batch (decoded frames, one array) into `out` in one copy, queued: the
    // array lives until the session's queue has finished.
    void writeStack(const Array& stack, const cl::Buffer& out);
    // The run's counts so far: a batch that fell back to the host counts again from there.
    void batchDone() { doneBefore_ = onDevice, receivedBefore_ = asReceived; }
    // "N frames decoded on the device, M decoded on the host (why), K uploaded as received".
    std::string note() const;

    std::size_t onDevice = 0, onHost = 0, asReceived = 0;

  private:
    std::size_t decodeRun(const std::vector<stream::ReceivedFrame>& frames, std::size_t i,
                          const cl::Buffer& out);
    std::size_t uploadAsReceived(const std::vector<stream::ReceivedFrame>& frames, std::size_t i,
                                 const cl::Buffer& out);
    void upload(std::vector<stream::ReceivedFrame>& frames, const cl::Buffer& out);

    ClSession& session_;
    FrameFormat format_;
    decode::FrameDecoder decoder_;
    bool onDevice_;
    std::size_t doneBefore_ = 0, receivedBefore_ = 0;
    std::string hostReason_;
    std::vector<std::byte> host_; // kept between batches
};

// A batch taken from the feed: its frames one by one, or a stacked feed's array of them;
// `prepared` when its decode on the device has begun.
struct Taken {
    std::vector<stream::ReceivedFrame> frames;
    Array stack;
    std::optional<std::size_t> prepared;
    std::size_t count() const { return stack.shape().empty() ? frames.size() : stack.shape()[0]; }
};

// Up to `batch` frames, waiting until that many came or the series ended. A stacked feed's
// array lands in pinned memory of a GPU (pinnedInputScope), so its upload is one DMA.
Taken takeBatch(FrameFeed& feed, std::size_t batch, const DeviceInfo& device);

// "stream tcp://…: image I: WHY" for the decoder's "frame K...: WHY" about frame K of a batch
// whose first frame is image `first`.
std::string imageError(const FrameFeed& feed, std::size_t first, const std::string& what);

// `taken` written into `out` through `writer` (decoded, enqueued or uploaded), a decoder's
// InputError naming the feed's image (the batch's first is image `first`).
void writeTaken(BatchWriter& writer, Taken& taken, const cl::Buffer& out, const FrameFeed& feed,
                std::size_t first);

} // namespace clscope::pipeline
