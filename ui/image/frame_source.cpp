#include "ui/image/frame_source.hpp"

#include "core/errors.hpp"

#include <cstring>

namespace clscope::ui {

ArrayFrameSource::ArrayFrameSource(Array frames, std::string description)
    : frames_(std::move(frames)), description_(std::move(description)) {
    if (frames_.rank() != 2 && frames_.rank() != 3)
        throw InputError(description_ + ": expected (T,H,W) or (H,W), got " +
                         shapeString(frames_.shape()));
}

Array ArrayFrameSource::readFrames(std::size_t first, std::size_t count) const {
    if (first + count > frameCount())
        throw InputError(description_ + ": frame range out of bounds");
    Array out(frames_.dtype(), {count, height(), width()});
    const std::size_t frameBytes = frames_.frameSize() * dtypeSize(frames_.dtype());
    std::memcpy(out.bytes(), frames_.bytes() + first * frameBytes, count * frameBytes);
    return out;
}

Hdf5FrameSource::Hdf5FrameSource(std::shared_ptr<const H5Reader> file, std::string path)
    : file_(std::move(file)), path_(std::move(path)) {
    const DatasetInfo info = file_->info(path_);
    if (info.shape.size() != 2 && info.shape.size() != 3)
        throw InputError(file_->where(path_) + ": expected (T,H,W) or (H,W), got " +
                         shapeString(info.shape));
    if (!info.dtype) throw InputError(file_->where(path_) + ": unsupported type " + info.typeName);
    shape_ = info.shape;
}

Array Hdf5FrameSource::readFrames(std::size_t first, std::size_t count) const {
    if (shape_.size() == 2) {
        Array image = file_->read(path_);
        Array out(image.dtype(), {1, shape_[0], shape_[1]});
        std::memcpy(out.bytes(), image.bytes(), image.byteSize());
        return out;
    }
    return file_->readSlab(path_, first, count);
}

} // namespace clscope::ui
