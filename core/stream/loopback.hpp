// A detector stream on this host for benches: a ZeroMQ PUSH socket on tcp://127.0.0.1:* whose
// thread sends pre-encoded messages as fast as the receiver takes them (no copy per send, as a
// detector sends from its own buffers), and a receiver that only counts what arrives.
#pragma once
#include "core/stream/series_encoder.hpp"

#include <memory>
#include <string>

namespace clscope::stream {

class LoopbackPublisher {
  public:
    // Sends `start`, then `count` image messages made by image(i) from the pre-encoded
    // `images` (cycled; the image_id of each is patched in), then `end`.
    LoopbackPublisher(Bytes start, std::vector<Bytes> images, std::uint64_t count, Bytes end);
    ~LoopbackPublisher();
    const std::string& endpoint() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

// Receives `count` messages from `endpoint` without decoding them; the bytes received.
std::uint64_t receiveMessages(const std::string& endpoint, std::uint64_t count);

} // namespace clscope::stream
