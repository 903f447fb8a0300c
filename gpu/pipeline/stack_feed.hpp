// The frames of a file's stack in every layout but single-frame bitshuffle-LZ4 chunks (which
// FileFeed reads raw): contiguous, chunked with any filter and any number of frames a chunk,
// EIGER's data_NNNNNN parts joined. libhdf5 reads and decodes them front to back, a batch at a
// time into one array (pinned memory of a GPU where the pipeline's reading thread asks for it),
// the run's frame range of them; the pipeline uploads each batch in one copy while the device
// runs the one before. A stack stored as it is held in memory (contiguous, no filter, the native
// type: h5::rawPlace) is read straight from the file on several threads instead, outside
// libhdf5's lock; one of whole-frame gzip or bslz4 chunks is decoded on several threads
// (ChunkedFrames).
#pragma once
#include "core/file_ranges.hpp"
#include "core/frame_stream.hpp"
#include "core/input/chunked_frames.hpp"
#include "core/input/input_sources.hpp"
#include "gpu/pipeline/frame_feed.hpp"

#include <memory>

namespace clscope::pipeline {

class StackFeed : public FrameFeed {
  public:
    // The feed of the role's frames in the file, or null where the role is not a stack read
    // from a file (a live stream's, one held in memory) or the range has no frame. InputError
    // as every reader of the stack (FrameStream) gives.
    static std::unique_ptr<StackFeed> open(const InputSources& sources, const InputRole& role);

    FrameFormat format() const override;
    std::size_t frameCount() const override { return frames_->frameCount(); }
    // The frames of takeStack, each in an array of its own.
    std::vector<stream::ReceivedFrame> takeNext(std::size_t maxCount) override;
    std::string name() const override { return name_; }
    bool stacked() const override { return true; }
    Array takeStack(std::size_t maxCount) override;

  private:
    StackFeed(std::shared_ptr<FrameStream> frames, std::string name);
    // raw_ or chunked_ where the stack at `at` is stored so (the window's first frame there).
    void openDirect(const InputSources& sources, const DataLocation& at);
    std::shared_ptr<FrameStream> frames_;
    std::size_t next_ = 0; // the next frame read, of the windowed stream
    std::string name_;
    std::unique_ptr<ReadOnlyFile> raw_;      // a stack stored as held: its file, else null
    std::uint64_t rawFirst_ = 0;             // there: where the window's first frame starts
    std::unique_ptr<ChunkedFrames> chunked_; // a stack of whole-frame gzip or bslz4 chunks
    std::size_t chunkedFirst_ = 0;           // there: the window's first frame
};

} // namespace clscope::pipeline
