#include "core/frame_stream.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/sparse/rigaku_frames.hpp"
#include "core/sparse/sparse_frames.hpp"
#include "core/stream/live_frames.hpp"

#include <algorithm>
#include <cstring>

namespace clscope {

FrameStream::FrameStream(const std::string& fileName, const std::string& path,
                         std::optional<double> frameTime)
    : file_(RigakuFrames::named(fileName) ? nullptr : std::make_shared<H5Reader>(fileName)) {
    if (!file_) {
        openRigaku(fileName);
        return;
    }
    if ((sparse_ = openSparseFrames(*file_, path, frameTime))) {
        openSparse();
        return;
    }
    parts_ = frameDatasets(*file_, path);
    for (const std::string& part : parts_) {
        const DatasetInfo di = checkFrameDataset(*file_, part);
        file_->checkStored(part); // before read() allocates a pass of frames
        const std::size_t rank = di.shape.size(), h = di.shape[rank - 2], w = di.shape[rank - 1];
        if (starts_.empty()) {
            dtype_ = *di.dtype, height_ = h, width_ = w, stack_ = rank == 3;
        } else if (*di.dtype != dtype_ || h != height_ || w != width_ || rank != 3) {
            throw InputError(file_->where(part) + ": " + di.typeName + " " + shapeString(di.shape) +
                             " does not match " + parts_[0]);
        }
        starts_.push_back(total_);
        total_ += rank == 3 ? di.shape[0] : 1;
    }
}

FrameStream::~FrameStream() = default;

void FrameStream::openSparse() {
    parts_ = {sparse_->group()}, starts_ = {0};
    total_ = sparse_->frameCount(), height_ = sparse_->height(), width_ = sparse_->width();
    dtype_ = sparse_->dtype();
}

void FrameStream::openRigaku(const std::string& fileName) {
    rigaku_ = std::make_unique<RigakuFrames>(fileName);
    parts_ = {fileName}, starts_ = {0};
    total_ = rigaku_->frameCount(), height_ = RigakuFrames::height, width_ = RigakuFrames::width;
    dtype_ = DType::UInt16;
}

std::string FrameStream::where() const {
    return file_ ? file_->where(parts_[0]) : parts_[0];
}

FrameStream::FrameStream(std::shared_ptr<const stream::LiveFrames> live)
    : file_(live->startFile()), live_(std::move(live)) {
    parts_ = {paths::frames}, starts_ = {0};
    total_ = live_->frameCount(), height_ = live_->height(), width_ = live_->width();
    dtype_ = live_->dtype();
}

void FrameStream::window(std::size_t first, std::size_t count) {
    if (count > total_ || first > total_ - count)
        throw InputError(where() + ": frames " + std::to_string(first) + ".." +
                         std::to_string(first + count) + " beyond its " + std::to_string(total_) +
                         " frames");
    windowed_ = true, offset_ = first, count_ = count;
}

void FrameStream::recycle(Array&& frames) const {
    if (live_) live_->recycle(std::move(frames));
}

void FrameStream::checkRange(std::size_t first, std::size_t count) const {
    if (count > frameCount() || first > frameCount() - count)
        throw InputError(where() + ": frames " + std::to_string(first) + ".." +
                         std::to_string(first + count) + " out of range");
}

std::optional<SparseBlock> FrameStream::readSparse(std::size_t first, std::size_t count) const {
    checkRange(first, count);
    std::optional<SparseBlock> out;
    if (sparse_) out = sparse_->readSparse(first + offset_, count);
    if (rigaku_) out = rigaku_->readSparse(first + offset_, count);
    if (out) out->first = first; // this stream's index (a window's frame 0 is 0)
    return out;
}

namespace {

template <class T>
std::vector<std::uint64_t> differences(const std::vector<T>& ptr, std::size_t first,
                                       std::size_t count) {
    std::vector<std::uint64_t> out(count);
    for (std::size_t f = 0; f < count; ++f)
        out[f] = static_cast<std::uint64_t>(ptr[first + f + 1] - ptr[first + f]);
    return out;
}

} // namespace

std::optional<std::vector<std::uint64_t>> FrameStream::entriesPerFrame() const {
    if (sparse_) return differences(sparse_->framePtr(), offset_, frameCount());
    if (rigaku_) return differences(rigaku_->framePtr(), offset_, frameCount());
    return std::nullopt;
}

Array FrameStream::read(std::size_t first, std::size_t count) const {
    checkRange(first, count);
    first += offset_;
    if (live_) return live_->read(first, count);
    if (sparse_) return sparse_->read(first, count);
    if (rigaku_) return rigaku_->read(first, count);
    if (!stack_) { // one image: read whole, as one frame
        Array image = file_->read(parts_[0]);
        Array out(dtype_, {1, height_, width_});
        std::memcpy(out.bytes(), image.bytes(), image.byteSize());
        return out;
    }
    const auto part = [this](std::size_t at) {
        return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), at) -
                                        starts_.begin() - 1);
    };
    const auto partEnd = [this](std::size_t k) {
        return k + 1 < starts_.size() ? starts_[k + 1] : total_;
    };
    // Within one part: the slab as read (no copy; in pinned memory under a pinned scope).
    if (const std::size_t k = part(first); count > 0 && first + count <= partEnd(k))
        return file_->readSlab(parts_[k], first - starts_[k], count);
    Array out(dtype_, {count, height_, width_});
    std::size_t done = 0;
    while (done < count) {
        const std::size_t at = first + done;
        const std::size_t k = part(at);
        const std::size_t n = std::min(count - done, partEnd(k) - at);
        const Array slab = file_->readSlab(parts_[k], at - starts_[k], n);
        std::memcpy(out.bytes() + done * frameBytes(), slab.bytes(), slab.byteSize());
        done += n;
    }
    return out;
}

std::size_t FrameStream::framesWithin(std::uint64_t bytes) const {
    const std::uint64_t frame = std::max<std::uint64_t>(frameBytes(), 1);
    return static_cast<std::size_t>(std::clamp<std::uint64_t>(bytes / frame, 1, frameCount()));
}

} // namespace clscope
