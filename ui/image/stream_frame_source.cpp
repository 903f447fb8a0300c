#include "ui/image/stream_frame_source.hpp"

#include "core/sparse/rigaku_frames.hpp"
#include "core/sparse/sparse_location.hpp"

namespace clscope::ui {

StreamFrameSource::StreamFrameSource(const std::string& fileName, const std::string& path,
                                     std::optional<double> frameTime)
    : stream_(fileName, path, frameTime),
      description_(RigakuFrames::named(fileName) ? fileName : fileName + ":" + path) {}

Array StreamFrameSource::readFrames(std::size_t first, std::size_t count) const {
    return stream_.read(first, count);
}

std::optional<std::vector<std::uint64_t>> StreamFrameSource::entriesPerFrame() const {
    return stream_.entriesPerFrame();
}

std::shared_ptr<const FrameSource> openFrameSource(std::shared_ptr<const H5Reader> file,
                                                   const std::string& path,
                                                   std::optional<double> frameTime) {
    const std::string& name = file->fileName();
    if (RigakuFrames::named(name) || findSparse(*file, path))
        return std::make_shared<StreamFrameSource>(name, path, frameTime);
    return std::make_shared<Hdf5FrameSource>(std::move(file), path);
}

} // namespace clscope::ui
