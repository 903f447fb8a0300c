#include "core/sparse/csr_frames.hpp"

#include "core/errors.hpp"
#include "core/limits.hpp"

#include <limits>

namespace clscope {

std::vector<std::int64_t> CsrFrames::readShape(const std::string& dataset, std::size_t rank) {
    // h5py writers put it on the group (f['sparse'].attrs['shape']) or, as scipy-minded ones
    // do, on the index array: both are read, the group's first.
    auto shape = file_->integerAttribute(group_, "shape");
    if (!shape) shape = file_->integerAttribute(group_ + "/" + dataset, "shape");
    const std::string expected = rank == 3 ? "(T, H, W)" : "(H, W)";
    if (!shape)
        throw InputError(file_->where(group_) + ": attribute shape = " + expected +
                         " missing (on the group or on " + dataset + ")");
    bool positive = shape->size() == rank;
    for (const std::int64_t n : *shape)
        positive = positive && n > 0;
    if (!positive) {
        std::string found;
        for (const std::int64_t n : *shape)
            found += (found.empty() ? "" : ", ") + std::to_string(n);
        throw InputError(file_->where(group_) + ": attribute shape must be " + expected +
                         " of positive sizes, found (" + found + ")");
    }
    const std::uint64_t pixels = static_cast<std::uint64_t>((*shape)[rank - 2]) *
                                 static_cast<std::uint64_t>((*shape)[rank - 1]);
    if ((*shape)[rank - 2] > INT32_MAX || (*shape)[rank - 1] > INT32_MAX || pixels > INT32_MAX)
        throw InputError(file_->where(group_) + ": attribute shape: H·W = " +
                         std::to_string(pixels) + " pixels do not fit an int32 pixel index");
    height_ = static_cast<std::size_t>((*shape)[rank - 2]);
    width_ = static_cast<std::size_t>((*shape)[rank - 1]);
    return *shape;
}

std::uint64_t CsrFrames::checkColumn(const std::string& name) const {
    const std::string path = group_ + "/" + name;
    if (!file_->hasObject(path)) throw InputError(where(name) + ": dataset missing");
    const DatasetInfo di = file_->info(path);
    if (di.shape.size() != 1 || !di.integer)
        throw InputError(where(name) + ": must be a 1-D integer array, found " + di.typeName + " " +
                         shapeString(di.shape));
    file_->checkStored(path); // before a read allocates for it
    return di.shape[0];
}

template <class T>
void CsrFrames::densify(const Array& pixels, const Array* counts, std::size_t first,
                        std::size_t count, Array& out) const {
    const std::span<const std::int64_t> pixel = pixels.as<std::int64_t>();
    const std::int64_t pixelsPerFrame = static_cast<std::int64_t>(height_ * width_);
    const std::int64_t base = ptr_[first];
    T* frames = reinterpret_cast<T*>(out.bytes());
    for (std::size_t f = 0; f < count; ++f) {
        T* frame = frames + f * height_ * width_;
        for (std::int64_t i = ptr_[first + f] - base; i < ptr_[first + f + 1] - base; ++i) {
            const std::int64_t p = pixel[i];
            if (p < 0 || p >= pixelsPerFrame) throwOutside(p, base + i, first + f);
            const std::uint64_t add =
                counts ? static_cast<std::uint64_t>(counts->as<std::int64_t>()[i]) : 1;
            const std::uint64_t sum = frame[p] + add;
            if (sum > std::numeric_limits<T>::max())
                throw InputError(
                    sumBeyondType(where(counts ? "count" : "pixel"), p, first + f, sum, dtype_));
            frame[p] = static_cast<T>(sum);
        }
    }
}

void CsrFrames::throwOutside(std::int64_t pixel, std::int64_t index, std::size_t frame) const {
    throw InputError(where("pixel") + ": pixel " + std::to_string(pixel) + " at index " +
                     std::to_string(index) + " (frame " + std::to_string(frame) +
                     ") is outside [0, H·W = " + std::to_string(height_ * width_) + ")");
}

void CsrFrames::checkRange(std::size_t first, std::size_t count) const {
    if (count > frameCount() || first > frameCount() - count)
        throw InputError(file_->where(group_) + ": frames " + std::to_string(first) + ".." +
                         std::to_string(first + count) + " out of range");
}

SparseBlock CsrFrames::readSparse(std::size_t first, std::size_t count) const {
    checkRange(first, count);
    const auto lo = static_cast<std::size_t>(ptr_[first]);
    const auto n = static_cast<std::size_t>(ptr_[first + count]) - lo;
    SparseBlock out;
    out.first = first, out.where = where(countName_.empty() ? "pixel" : countName_);
    out.ptr.resize(count + 1);
    for (std::size_t f = 0; f <= count; ++f)
        out.ptr[f] = ptr_[first + f] - ptr_[first];
    const Array pixels = file_->readSlab(group_ + "/pixel", lo, n, DType::Int64);
    const std::span<const std::int64_t> pixel = pixels.as<std::int64_t>();
    const auto frameSize = static_cast<std::int64_t>(height_ * width_);
    out.pixel.resize(n);
    for (std::size_t f = 0; f < count; ++f)
        for (auto i = static_cast<std::size_t>(out.ptr[f]); i < std::size_t(out.ptr[f + 1]); ++i) {
            if (pixel[i] < 0 || pixel[i] >= frameSize)
                throwOutside(pixel[i], std::int64_t(lo + i), first + f);
            out.pixel[i] = static_cast<std::int32_t>(pixel[i]);
        }
    if (countName_.empty()) {
        out.count.assign(n, 1);
    } else {
        const Array counts = file_->readSlab(group_ + "/" + countName_, lo, n, DType::UInt32);
        const std::span<const std::uint32_t> c = counts.as<std::uint32_t>();
        out.count.assign(c.begin(), c.end());
    }
    return out;
}

Array CsrFrames::read(std::size_t first, std::size_t count) const {
    checkRange(first, count);
    const Shape shape{count, height_, width_};
    const auto bytes = checkedBytes(shape, dtypeSize(dtype_));
    if (!bytes) throw InputError(file_->where(group_) + ": " + shapeString(shape) + " overflows");
    checkHostMemory(*bytes, file_->where(group_) + " densified " + shapeString(shape));
    // Only the entries of these frames: a hyperslab of each column.
    const auto lo = static_cast<std::size_t>(ptr_[first]);
    const auto n = static_cast<std::size_t>(ptr_[first + count]) - lo;
    const Array pixels = file_->readSlab(group_ + "/pixel", lo, n, DType::Int64);
    Array counts;
    if (!countName_.empty())
        counts = file_->readSlab(group_ + "/" + countName_, lo, n, DType::Int64);
    Array out(dtype_, shape);
    const Array* c = countName_.empty() ? nullptr : &counts;
    if (dtype_ == DType::UInt16)
        densify<std::uint16_t>(pixels, c, first, count, out);
    else
        densify<std::uint32_t>(pixels, c, first, count, out);
    return out;
}

} // namespace clscope
