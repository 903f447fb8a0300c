#include "gpu/pipeline/stack_feed.hpp"

#include "core/input/frame_reading.hpp"

#include <algorithm>
#include <cstring>

namespace clscope::pipeline {

StackFeed::StackFeed(std::shared_ptr<FrameStream> frames, std::string name)
    : frames_(std::move(frames)), name_(std::move(name)) {}

std::unique_ptr<StackFeed> StackFeed::open(const InputSources& sources, const InputRole& role) {
    if (sources.live || !role.stack || sources.inMemory(role)) return nullptr;
    const DataLocation at = sources.locate(role);
    std::shared_ptr<FrameStream> frames = openFrames(sources, role);
    if (frames->frameCount() == 0) return nullptr;
    return std::unique_ptr<StackFeed>(
        new StackFeed(std::move(frames), "file " + at.file + ":" + at.path));
}

FrameFormat StackFeed::format() const {
    return {frames_->height(), frames_->width(), frames_->dtype()};
}

Array StackFeed::takeStack(std::size_t maxCount) {
    const std::size_t n = std::min(maxCount, frameCount() - next_);
    if (n == 0) return {};
    Array out = frames_->read(next_, n);
    next_ += n;
    return out;
}

std::vector<stream::ReceivedFrame> StackFeed::takeNext(std::size_t maxCount) {
    const Array stack = takeStack(maxCount);
    std::vector<stream::ReceivedFrame> out(stack.shape().empty() ? 0 : stack.shape()[0]);
    const FrameFormat f = format();
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].frame = Array(f.dtype, {f.height, f.width});
        std::memcpy(out[i].frame.bytes(), stack.bytes() + i * f.frameBytes(), f.frameBytes());
    }
    return out;
}

} // namespace clscope::pipeline
