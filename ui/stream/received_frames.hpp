// The frames of a live stream received so far, in arrival order (Qt-free): the image view reads
// them as a stack that grows, the analyses over the frames so far take copies, and "Save what
// was received" writes them as the frame stack a file run reads. Appended from the receiving
// thread, read from any.
#pragma once
#include "core/stream/stream_v2.hpp"
#include "ui/image/frame_source.hpp"

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace clscope::ui {

class ReceivedFrames : public FrameSource {
  public:
    // The series its start message announces; frames of its image size and `dtype`.
    ReceivedFrames(stream::StartMessage start, DType dtype, std::string description);
    void append(const Array& frames); // (n,H,W) of the start's size and dtype
    std::size_t frameCount() const override;
    std::size_t height() const override { return start_.height; }
    std::size_t width() const override { return start_.width; }
    DType dtype() const { return dtype_; }
    const stream::StartMessage& start() const { return start_; }
    Array readFrames(std::size_t first, std::size_t count) const override;
    Array all() const; // every frame so far, (n,H,W)
    std::string description() const override { return description_; }
    // Writes the frames so far at the NXmx frames path with the start message's pixel mask and
    // frame time (a temporary name renamed into place); returns how many frames it wrote.
    // InputError when nothing was received yet or the file cannot be written.
    std::size_t save(const std::string& path) const;

  private:
    std::size_t frameBytes() const { return start_.height * start_.width * dtypeSize(dtype_); }
    stream::StartMessage start_;
    DType dtype_;
    std::string description_;
    mutable std::mutex mutex_;
    std::vector<std::byte> bytes_;
    std::size_t count_ = 0;
};

} // namespace clscope::ui
