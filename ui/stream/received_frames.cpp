#include "ui/stream/received_frames.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "core/mask/header_geometry.hpp"
#include "core/mask/mask_io.hpp"
#include "core/stream/live_frames.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace clscope::ui {

std::size_t ReceivedFrames::defaultBudgetBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0) return std::size_t(8) << 30;
    return std::size_t(pages) * std::size_t(pageSize) / 4;
}

ReceivedFrames::ReceivedFrames(stream::StartMessage start, DType dtype, std::string description,
                               std::size_t budgetBytes)
    : start_(std::move(start)), dtype_(dtype), description_(std::move(description)) {
    const std::size_t budget = budgetBytes ? budgetBytes : defaultBudgetBytes();
    budgetFrames_ = std::max<std::size_t>(1, budget / std::max<std::size_t>(1, frameBytes()));
}

void ReceivedFrames::append(const Array& frames) {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < frames.frameCount(); ++i) {
        Array frame(dtype_, {1, height(), width()});
        std::memcpy(frame.bytes(), frames.bytes() + i * frameBytes(), frameBytes());
        frames_.push_back(std::move(frame));
        if (frames_.size() > budgetFrames_) frames_.pop_front(), ++first_;
    }
}

std::size_t ReceivedFrames::frameCount() const {
    std::lock_guard lock(mutex_);
    return first_ + frames_.size();
}

std::size_t ReceivedFrames::firstKept() const {
    std::lock_guard lock(mutex_);
    return first_;
}

Array ReceivedFrames::readFrames(std::size_t first, std::size_t count) const {
    std::lock_guard lock(mutex_);
    const std::size_t received = first_ + frames_.size();
    if (first > received || count > received - first)
        throw InputError(description_ + ": frames " + std::to_string(first) + ".." +
                         std::to_string(first + count) + " asked for, " + std::to_string(received) +
                         " received");
    if (first < first_)
        throw InputError(description_ + ": frame " + std::to_string(first) +
                         " was dropped from memory (keeping the last " +
                         std::to_string(budgetFrames_) + " frames, from frame " +
                         std::to_string(first_) + ")");
    Array out(dtype_, {count, height(), width()});
    for (std::size_t i = 0; i < count; ++i)
        std::memcpy(out.bytes() + i * frameBytes(), frames_[first - first_ + i].bytes(),
                    frameBytes());
    return out;
}

ReceivedFrames::Kept ReceivedFrames::kept() const {
    std::lock_guard lock(mutex_);
    Kept k{first_, Array(dtype_, {frames_.size(), height(), width()})};
    for (std::size_t i = 0; i < frames_.size(); ++i)
        std::memcpy(k.frames.bytes() + i * frameBytes(), frames_[i].bytes(), frameBytes());
    return k;
}

std::string ReceivedFrames::droppedText() const {
    const std::size_t first = firstKept();
    if (first == 0) return {};
    char gb[32];
    std::snprintf(gb, sizeof gb, "%.3g GB", double(budgetFrames_ * frameBytes()) / 1e9);
    return "frames 0.." + std::to_string(first - 1) + " dropped from memory (keeping the last " +
           std::to_string(budgetFrames_) + " frames, " + gb + ")";
}

ReceivedFrames::Kept ReceivedFrames::save(const std::string& path) const {
    Kept k = kept();
    if (k.frames.frameCount() == 0) throw InputError(description_ + ": no frame received yet");
    H5Writer out(path);
    out.write(paths::frames, k.frames);
    if (k.first) out.setAttribute(paths::frames, "first_frame", double(k.first));
    stream::writeStartDatasets(out, start_);
    // The start message's detector geometry as a file's geometry group: a file run of the saved
    // frames (azint, the masks' q) finds the geometry the live run took.
    if (const auto g = mask::headerGeometry(start_)) mask::writeGeometry(out, *g);
    out.commit();
    return k;
}

} // namespace clscope::ui
