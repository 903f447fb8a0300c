// A detector stream as a frame stack read in order (DESIGN.md §4 "Live input"): frames
// [first, first + count) are taken from the stream as they arrive; the frames of the last read
// stay held, so the next read may start again within them (a first frame read alone, then the
// first block), never before them. The start message's pixel mask and frame time are offered
// as an HDF5 file image at the NXmx paths, so the roles that read them read them as a file's.
#pragma once
#include "core/array.hpp"
#include "core/stream/stream_source.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clscope {
class H5Reader;
class H5Writer;
} // namespace clscope

namespace clscope::stream {

// The start message's pixel mask and frame time (seconds) at the NXmx paths, where sent: what
// a file of the stream's frames holds besides them.
void writeStartDatasets(H5Writer& out, const StartMessage& start);

class LiveFrames {
  public:
    // Connects and waits for the start message (InputError as FrameSource). The frame count is
    // the start's number_of_images, at most maxFrames; UsageError when neither is known.
    explicit LiveFrames(SourceOptions options);

    const std::string& endpoint() const { return options_.endpoint; }
    std::size_t frameCount() const { return count_; }
    std::size_t height() const { return source_.height(); }
    std::size_t width() const { return source_.width(); }
    DType dtype() const { return source_.dtype(); }
    // The start message as an HDF5 file image: pixel_mask and frame_time (seconds) where sent.
    const std::vector<std::byte>& startImage() const { return image_; }
    // That image opened once for every reader of the run (each open copied it twice: 72 MB of
    // pixel mask at 16M). Not probed: clscope wrote it, and a fork while the stream's threads
    // allocate can hang the probe's child (the sanitizers' allocator).
    std::shared_ptr<H5Reader> startFile() const;

    // Frames [first, first + count) as a (count,H,W) array; InputError when they lie before
    // the frames held (a stream is read once). A series that ends early (its end message or
    // the timeout before frameCount() frames) gives the frames that came to a read of the
    // whole series (first 0, count frameCount()): the run is that of a file of those frames;
    // any other read past the end is an InputError saying how many came.
    // The frames are copied once, from the decoded frames into the array, by several threads.
    Array read(std::size_t first, std::size_t count) const;
    // An array read() gave, once its frames are done with: a later read of as many frames
    // fills it again instead of fresh memory (page faults and zero fill on one thread).
    void recycle(Array&& frames) const;

    // The next frames of the series in order, after those takeNext() handed out, as
    // received (compressed ones left so when SourceOptions::keepCompressed): at least one, at
    // most maxCount; empty at its end (one that ended early: report() says how many of how
    // many came).
    std::vector<ReceivedFrame> takeNext(std::size_t maxCount) const;

    const StartMessage& start() const { return source_.start(); }
    // "no pixel mask in the start message (header_detail basic): none used": what the start
    // message left out (`what`: "pixel mask", "frame time"), taken as absent.
    std::string absent(const std::string& what) const;

    // "stream tcp://…: N of M frames received, M processed; ..." (an early end and the queue's
    // waits included).
    std::string report() const;

  private:
    // Lets go of the frames before `first`, then receives until frame upTo - 1 is held; false
    // when the series ended before (ended_ set).
    bool pull(std::size_t first, std::size_t upTo) const;
    Array output(std::size_t count) const; // a spare array of count frames, else a new one
    std::string
    endText() const; // "K of N frames received (announced; the series ended early: ...)"

    SourceOptions options_;
    mutable FrameSource source_;
    std::vector<std::byte> image_;
    mutable std::shared_ptr<H5Reader> startFile_; // opened on first use, under mutex_
    std::size_t count_ = 0;
    mutable std::mutex mutex_;
    mutable std::deque<Array> held_; // decoded frames [heldFirst_, heldFirst_ + held_.size())
    mutable std::size_t heldFirst_ = 0, handedOut_ = 0;
    mutable std::size_t taken_ = 0;    // frames takeNext() handed out
    mutable std::vector<Array> spare_; // arrays given back through recycle()
    mutable std::optional<std::size_t>
        ended_; // frames received in all, when the series ended early
};

} // namespace clscope::stream
