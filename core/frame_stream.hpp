// A frame stack read a range of frames at a time (for runs within a memory budget): the same
// datasets, types and checks as readFrames, EIGER's data_NNNNNN files joined, without ever
// holding the whole stack. Sparse frames and event lists (DESIGN.md §3), and Rigaku .bin files,
// read as the dense stack they hold, only the frames read densified.
#pragma once
#include "core/hdf5.hpp"
#include "core/sparse/sparse_block.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope {
namespace stream {
class LiveFrames;
}

class CsrFrames;
class RigakuFrames;

class FrameStream {
  public:
    // InputError as readFrames for a missing dataset, a wrong type or rank, or parts that
    // differ in type or frame size. `frameTime` (seconds, --frame-time): the frames an event
    // list is binned into (UsageError when path names one and it is not given). A file named
    // *.bin is a Rigaku binary file (core/sparse/rigaku_frames.hpp; path unused).
    FrameStream(const std::string& fileName, const std::string& path,
                std::optional<double> frameTime = std::nullopt);
    ~FrameStream();
    // The frames of a detector stream, read in order as they arrive (DESIGN.md §4).
    explicit FrameStream(std::shared_ptr<const stream::LiveFrames> live);
    std::size_t frameCount() const { return windowed_ ? count_ : total_; }
    // From now on, frames [first, first + count) of the stack are this stream's frames 0 ..
    // count - 1 (--frames); InputError when they go beyond the stack.
    void window(std::size_t first, std::size_t count);
    std::size_t height() const { return height_; }
    std::size_t width() const { return width_; }
    DType dtype() const { return dtype_; }
    bool isStack() const { return stack_; } // (T,H,W) rather than one (H,W) image
    std::size_t frameBytes() const { return height_ * width_ * dtypeSize(dtype_); }
    // Frames [first, first + count) as a (count,H,W) array (a (H,W) image reads as one frame).
    Array read(std::size_t first, std::size_t count) const;
    // The same frames' stored entries where they are stored sparsely (sparse_block.hpp), else
    // nothing (read() them).
    std::optional<SparseBlock> readSparse(std::size_t first, std::size_t count) const;
    // The stored entries of each of this stream's frames where they are stored sparsely (a CSR
    // layout, an event list, a Rigaku file: known from opening, no entry read), else nothing.
    std::optional<std::vector<std::uint64_t>> entriesPerFrame() const;
    // An array read() gave, once done with: a stream's later read may fill it again (a file's
    // reads ignore it).
    void recycle(Array&& frames) const;
    // Frames per read that keep one read within `bytes` (at least one).
    std::size_t framesWithin(std::uint64_t bytes) const;
    // FILE:PATH of the frames as found (a sparse group, a Rigaku file: its name), in messages.
    std::string where() const;

  private:
    std::shared_ptr<H5Reader> file_; // a live input's start file is shared
    std::shared_ptr<const stream::LiveFrames> live_;
    std::unique_ptr<const CsrFrames> sparse_;    // reads file_'s sparse frames when not null
    std::unique_ptr<const RigakuFrames> rigaku_; // a Rigaku file's frames (file_ null)
    void checkRange(std::size_t first, std::size_t count) const;
    void openSparse();
    void openRigaku(const std::string& fileName);
    std::vector<std::string> parts_;
    std::vector<std::size_t> starts_; // first frame of each part
    std::size_t total_ = 0, height_ = 0, width_ = 0;
    DType dtype_ = DType::UInt8;
    bool stack_ = true;
    bool windowed_ = false;
    std::size_t offset_ = 0, count_ = 0;
};

} // namespace clscope
