// Where the image view's frames come from: an in-memory stack or an HDF5 dataset read
// frame by frame (Qt-free, so the image presenter is tested without widgets).
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

class FrameSource {
  public:
    virtual ~FrameSource() = default;
    virtual std::size_t frameCount() const = 0;
    virtual std::size_t height() const = 0;
    virtual std::size_t width() const = 0;
    // Frames [first, first+count) as a (count,H,W) array in the stored type.
    virtual Array readFrames(std::size_t first, std::size_t count) const = 0;
    virtual std::string description() const = 0;
    // The stored entries of each frame where the frames are stored sparsely, else nothing.
    virtual std::optional<std::vector<std::uint64_t>> entriesPerFrame() const { return {}; }
};

// A stack already in memory (results, synthetic data, tests).
class ArrayFrameSource : public FrameSource {
  public:
    explicit ArrayFrameSource(Array frames, std::string description = "array");
    std::size_t frameCount() const override { return frames_.frameCount(); }
    std::size_t height() const override { return frames_.height(); }
    std::size_t width() const override { return frames_.width(); }
    Array readFrames(std::size_t first, std::size_t count) const override;
    std::string description() const override { return description_; }

  private:
    Array frames_;
    std::string description_;
};

// A (T,H,W) or (H,W) dataset of an open file, read in slabs on demand.
class Hdf5FrameSource : public FrameSource {
  public:
    Hdf5FrameSource(std::shared_ptr<const H5Reader> file, std::string path);
    std::size_t frameCount() const override { return shape_.size() == 3 ? shape_[0] : 1; }
    std::size_t height() const override { return shape_[shape_.size() - 2]; }
    std::size_t width() const override { return shape_.back(); }
    Array readFrames(std::size_t first, std::size_t count) const override;
    std::string description() const override { return file_->where(path_); }

  private:
    std::shared_ptr<const H5Reader> file_;
    std::string path_;
    Shape shape_;
};

} // namespace clscope::ui
