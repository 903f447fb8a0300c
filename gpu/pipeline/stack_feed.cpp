#include "gpu/pipeline/stack_feed.hpp"

#include "core/hdf5_util.hpp"
#include "core/input/frame_reading.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

namespace clscope::pipeline {

StackFeed::StackFeed(std::shared_ptr<FrameStream> frames, std::string name)
    : frames_(std::move(frames)), name_(std::move(name)) {}

std::unique_ptr<StackFeed> StackFeed::open(const InputSources& sources, const InputRole& role) {
    if (sources.live || !role.stack || sources.inMemory(role)) return nullptr;
    const DataLocation at = sources.locate(role);
    std::shared_ptr<FrameStream> frames = openFrames(sources, role);
    if (frames->frameCount() == 0) return nullptr;
    std::unique_ptr<StackFeed> feed(
        new StackFeed(std::move(frames), "file " + at.file + ":" + at.path));
    feed->openDirect(sources, at);
    return feed;
}

void StackFeed::openDirect(const InputSources& sources, const DataLocation& at) {
    const std::size_t frameBytes = frames_->frameBytes();
    if (!frames_->isStack() || frameBytes == 0) return;
    // The window's first frame in a dataset of `total` frames, if it is the stack FrameStream
    // reads (not EIGER parts joined).
    const auto windowFirst = [&](std::size_t total) -> std::optional<std::size_t> {
        const auto [first, end] = sources.frames.within(total, at.file + ":" + at.path);
        return end - first == frameCount() ? std::optional(first) : std::nullopt;
    };
    if (const std::optional<h5::RawPlace> place = h5::rawPlace(at.file, at.path);
        place && place->bytes % frameBytes == 0) {
        if (const auto first = windowFirst(place->bytes / frameBytes)) {
            raw_ = std::make_unique<ReadOnlyFile>(place->file);
            rawFirst_ = place->offset + *first * frameBytes;
        }
        return;
    }
    if (auto chunks = ChunkedFrames::open(at.file, at.path);
        chunks && chunks->frameBytes() == frameBytes && chunks->dtype() == frames_->dtype())
        if (const auto first = windowFirst(chunks->frameCount()))
            chunked_ = std::move(chunks), chunkedFirst_ = *first;
}

FrameFormat StackFeed::format() const {
    return {frames_->height(), frames_->width(), frames_->dtype()};
}

Array StackFeed::takeStack(std::size_t maxCount) {
    const std::size_t n = std::min(maxCount, frameCount() - next_);
    if (n == 0) return {};
    Array out;
    if (raw_ || chunked_) out = Array(frames_->dtype(), {n, frames_->height(), frames_->width()});
    if (raw_) {
        constexpr std::size_t piece = std::size_t(8) << 20; // bytes a read
        std::vector<FileRange> ranges;
        const std::uint64_t from = rawFirst_ + next_ * frames_->frameBytes();
        for (std::size_t at = 0; at < out.byteSize(); at += piece)
            ranges.push_back({from + at, std::min(piece, out.byteSize() - at), out.bytes() + at});
        raw_->read(ranges);
    } else if (!chunked_ || !chunked_->read(chunkedFirst_ + next_, n, out.bytes())) {
        // libhdf5 reads them (and says what is wrong with a chunk that did not decode)
        out = frames_->read(next_, n);
    }
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
