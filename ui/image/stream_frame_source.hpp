// Frames read through the core's frame reader (FrameStream): sparse frames, event lists and
// Rigaku .bin files densified a frame at a time for display, as every command reads them
// (DESIGN.md §3 "Sparse frames"; docs/SPARSE.md). Qt-free.
#pragma once
#include "core/frame_stream.hpp"
#include "ui/image/frame_source.hpp"

#include <memory>
#include <optional>
#include <string>

namespace clscope::ui {

class StreamFrameSource : public FrameSource {
  public:
    // FrameStream's errors (InputError, UsageError for an event list without a frame time).
    StreamFrameSource(const std::string& fileName, const std::string& path,
                      std::optional<double> frameTime);
    std::size_t frameCount() const override { return stream_.frameCount(); }
    std::size_t height() const override { return stream_.height(); }
    std::size_t width() const override { return stream_.width(); }
    Array readFrames(std::size_t first, std::size_t count) const override;
    std::string description() const override { return description_; }
    std::optional<std::vector<std::uint64_t>> entriesPerFrame() const override;

  private:
    FrameStream stream_;
    std::string description_;
};

// The frames at `path` of the open `file` for the image view: through FrameStream where they
// are stored sparsely or the file is a Rigaku .bin file (`frameTime`: an event list's bin
// width, seconds), else the dense dataset read in slabs (Hdf5FrameSource).
std::shared_ptr<const FrameSource> openFrameSource(std::shared_ptr<const H5Reader> file,
                                                   const std::string& path,
                                                   std::optional<double> frameTime);

} // namespace clscope::ui
