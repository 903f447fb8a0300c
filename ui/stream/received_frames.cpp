#include "ui/stream/received_frames.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "core/stream/live_frames.hpp"

#include <cstring>

namespace clscope::ui {

ReceivedFrames::ReceivedFrames(stream::StartMessage start, DType dtype, std::string description)
    : start_(std::move(start)), dtype_(dtype), description_(std::move(description)) {}

void ReceivedFrames::append(const Array& frames) {
    std::lock_guard lock(mutex_);
    bytes_.insert(bytes_.end(), frames.bytes(), frames.bytes() + frames.byteSize());
    count_ += frames.frameCount();
}

std::size_t ReceivedFrames::frameCount() const {
    std::lock_guard lock(mutex_);
    return count_;
}

Array ReceivedFrames::readFrames(std::size_t first, std::size_t count) const {
    std::lock_guard lock(mutex_);
    if (first > count_ || count > count_ - first)
        throw InputError(description_ + ": frames " + std::to_string(first) + ".." +
                         std::to_string(first + count) + " asked for, " + std::to_string(count_) +
                         " received");
    Array out(dtype_, {count, height(), width()});
    std::memcpy(out.bytes(), bytes_.data() + first * frameBytes(), count * frameBytes());
    return out;
}

Array ReceivedFrames::all() const {
    return readFrames(0, frameCount());
}

std::size_t ReceivedFrames::save(const std::string& path) const {
    const Array frames = all();
    if (frames.frameCount() == 0) throw InputError(description_ + ": no frame received yet");
    H5Writer out(path);
    out.write(paths::frames, frames);
    stream::writeStartDatasets(out, start_);
    out.commit();
    return frames.frameCount();
}

} // namespace clscope::ui
