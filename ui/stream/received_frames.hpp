// The frames of a live stream received so far, in arrival order (Qt-free): the image view reads
// them as a stack that grows, the analyses over the frames so far take copies, and "Save what
// was received" writes them as the frame stack a file run reads. Appended from the receiving
// thread, read from any. Memory is bounded: the newest frames within a byte budget are kept,
// older ones dropped, and droppedText() says so (never silently).
#pragma once
#include "core/stream/stream_v2.hpp"
#include "ui/image/frame_source.hpp"

#include <cstddef>
#include <deque>
#include <mutex>
#include <string>

namespace clscope::ui {

class ReceivedFrames : public FrameSource {
  public:
    // A quarter of this host's physical memory (8 GiB where it cannot be read).
    static std::size_t defaultBudgetBytes();

    // The series its start message announces; frames of its image size and `dtype`; at most
    // `budgetBytes` of them kept (at least one frame; 0: defaultBudgetBytes()).
    ReceivedFrames(stream::StartMessage start, DType dtype, std::string description,
                   std::size_t budgetBytes = 0);
    void append(const Array& frames);        // (n,H,W) of the start's size and dtype
    std::size_t frameCount() const override; // received in all, dropped ones included
    std::size_t height() const override { return start_.height; }
    std::size_t width() const override { return start_.width; }
    DType dtype() const { return dtype_; }
    const stream::StartMessage& start() const { return start_; }
    // Frames [first, first+count) by their index in the series; InputError for dropped ones.
    Array readFrames(std::size_t first, std::size_t count) const override;
    std::string description() const override { return description_; }

    struct Kept {
        std::size_t first = 0; // index of frames' first frame in the series
        Array frames;          // (n,H,W)
    };
    Kept kept() const;             // every frame still held
    std::size_t firstKept() const; // frames before it were dropped
    std::size_t budgetFrames() const { return budgetFrames_; }
    // "" while nothing was dropped, else "frames 0..K-1 dropped from memory (keeping the last
    // N frames, X GB)".
    std::string droppedText() const;
    // Writes the frames kept at the NXmx frames path with the start message's pixel mask and
    // frame time (a temporary name renamed into place; the frames' attribute first_frame says
    // where they start in the series); returns them. InputError when nothing was received yet
    // or the file cannot be written.
    Kept save(const std::string& path) const;

  private:
    std::size_t frameBytes() const { return start_.height * start_.width * dtypeSize(dtype_); }
    stream::StartMessage start_;
    DType dtype_;
    std::string description_;
    std::size_t budgetFrames_ = 1;
    mutable std::mutex mutex_;
    std::deque<Array> frames_; // (1,H,W) each: frames [first_, first_ + frames_.size())
    std::size_t first_ = 0;
};

} // namespace clscope::ui
