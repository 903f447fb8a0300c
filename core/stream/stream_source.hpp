// A frame source over a detector stream (DECTRIS Stream V2 on a ZeroMQ PULL socket): one
// series, start message first, then its images in order, then its end message. A receiver
// thread takes the messages off the socket into a bounded queue where a pool of threads decodes
// (decompresses) them, several at once; read() hands them out in order. When the queue is full
// the receiver stops reading, so ZeroMQ's own queue and then the sender wait: no frame is ever
// dropped. Frames come out as
// the frame readers give them, a (n,H,W) array of the images' dtype.
#pragma once
#include "core/array.hpp"
#include "core/stream/stream_v2.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::stream {

struct SourceOptions {
    std::string endpoint;                // tcp://HOST:PORT (the detector's PUSH socket)
    double timeoutSeconds = 30;          // no message for this long: InputError "no message in N s"
    std::uint64_t maxFrames = 0;         // stop after this many images (0: at the end message)
    std::size_t queueFrames = 64;        // frames held at most (received, decoding or decoded)
    std::size_t queueBytes = 1ull << 30; // and at most this many bytes of them (2 frames min.)
    std::size_t decodeThreads = 0;       // threads decoding images (0: CLSCOPE_DECODE_THREADS, else
                                         // one per core but one, at least 1, at most 16)
    std::string channel; // image channel (empty: the first of the start's `channels`)
    // Keep bslz4/lz4 images compressed as they came (a device decodes them: gpu/pipeline);
    // takeFrames() and read() then decompress them on the calling thread.
    bool keepCompressed = false;
    // Set (from any thread) to end the series early: within 0.1 s read() gives nullopt, and a
    // constructor still waiting for the start or first image throws Cancelled (the GUI's Stop).
    std::shared_ptr<const std::atomic<bool>> cancel;
};

// One image as received: its frame, or its compressed bytes (SourceOptions::keepCompressed).
struct ReceivedFrame {
    Array frame;
    PackedImage packed;
};

// Whether `input` names a stream rather than a file.
bool isStreamEndpoint(const std::string& input);

class FrameSource {
  public:
    // Connects and waits for the start message and the first image (InputError: timeout, a
    // malformed message, an image or end before the start, a series without images).
    explicit FrameSource(SourceOptions options);
    ~FrameSource();
    FrameSource(const FrameSource&) = delete;
    FrameSource& operator=(const FrameSource&) = delete;

    const StartMessage& start() const;
    std::size_t height() const { return start().height; }
    std::size_t width() const { return start().width; }
    DType dtype() const;          // the images' dtype
    std::string describe() const; // "stream tcp://…, series 7, 100 images of 64x48 uint16"

    // The next frames, at least one and at most maxCount (those already received), as a
    // (n,H,W) array; nullopt once the series is over (end message, maxFrames, or no message for
    // timeoutSeconds after the first image: timedOut()). Rethrows the receiver's InputError
    // (malformed or out-of-order message).
    std::optional<Array> read(std::size_t maxCount);
    // As read(), the decoded frames themselves, in order (no copy): each (H,W); give them back
    // through recycle() once done, so decoding reuses their memory.
    std::vector<Array> takeFrames(std::size_t maxCount);
    void recycle(Array&& frame); // a frame of takeFrames(), its memory decoded into again
    // As takeFrames(), the images as received: compressed ones left so (keepCompressed).
    std::vector<ReceivedFrame> takeReceived(std::size_t maxCount);
    std::uint64_t framesRead() const; // frames handed out by read() and append()
    bool timedOut() const; // the series ended by timeoutSeconds of silence, not its end message
    std::uint64_t framesReceived() const; // images received so far
    // Times the receiver found the queue full and waited (processing fell behind).
    std::uint64_t queueFullWaits() const;
    std::size_t queueFrames() const;   // the queue's bound, in frames
    std::size_t decodeWorkers() const; // threads decoding images

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace clscope::stream
