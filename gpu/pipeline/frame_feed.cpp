#include "gpu/pipeline/frame_feed.hpp"

#include "core/stream/live_frames.hpp"

#include <stdexcept>

namespace clscope::pipeline {

namespace {

class LiveFeed : public FrameFeed {
  public:
    explicit LiveFeed(const stream::LiveFrames& live) : live_(live) {}
    FrameFormat format() const override {
        return {live_.height(), live_.width(), live_.dtype(), true};
    }
    std::size_t frameCount() const override { return live_.frameCount(); }
    std::vector<stream::ReceivedFrame> takeNext(std::size_t maxCount) override {
        return live_.takeNext(maxCount);
    }
    std::string name() const override { return "stream " + live_.endpoint(); }

  private:
    const stream::LiveFrames& live_;
};

} // namespace

Array FrameFeed::takeStack(std::size_t) {
    throw std::logic_error(name() + ": its frames come one by one (takeNext), not as a stack");
}

std::unique_ptr<FrameFeed> liveFeed(const stream::LiveFrames& live) {
    return std::make_unique<LiveFeed>(live);
}

} // namespace clscope::pipeline
