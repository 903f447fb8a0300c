#include "core/sparse/sparse_block.hpp"

#include "core/errors.hpp"

#include <limits>

namespace clscope {

SparseView viewOf(const SparseBlock& block) {
    SparseView v;
    v.first = block.first, v.where = block.where, v.ptr = block.ptr;
    v.pixel.resize(block.frames()), v.count.resize(block.frames());
    for (std::size_t f = 0; f < block.frames(); ++f)
        v.pixel[f] = block.pixel.data() + block.ptr[f],
        v.count[f] = block.count.data() + block.ptr[f];
    return v;
}

namespace {

template <class T> void appendNonZero(const Array& dense, SparseBlock& out) {
    const std::span<const T> v = dense.as<T>();
    const std::size_t frameSize = dense.height() * dense.width();
    for (std::size_t f = 0; f < dense.frameCount(); ++f) {
        const T* frame = v.data() + f * frameSize;
        for (std::size_t p = 0; p < frameSize; ++p)
            if (frame[p] != 0) {
                out.pixel.push_back(static_cast<std::int32_t>(p));
                out.count.push_back(static_cast<std::uint32_t>(frame[p]));
            }
        out.ptr.push_back(static_cast<std::int64_t>(out.pixel.size()));
    }
}

} // namespace

SparseBlock sparseOf(const Array& dense, std::size_t first, const std::string& where) {
    SparseBlock out;
    out.first = first, out.where = where;
    switch (dense.dtype()) {
    case DType::UInt8:
        appendNonZero<std::uint8_t>(dense, out);
        break;
    case DType::UInt16:
        appendNonZero<std::uint16_t>(dense, out);
        break;
    case DType::UInt32:
        appendNonZero<std::uint32_t>(dense, out);
        break;
    default:
        throw InputError(where + ": " + dtypeName(dense.dtype()) +
                         " frames; the sparse correlators take unsigned integer counts "
                         "(uint8, uint16, uint32)");
    }
    return out;
}

namespace {

template <class T> void addEntries(const SparseBlock& block, DType dtype, Array& out) {
    const std::span<T> v = out.as<T>();
    const std::size_t frameSize = out.height() * out.width();
    for (std::size_t f = 0; f < block.frames(); ++f)
        for (auto i = std::size_t(block.ptr[f]); i < std::size_t(block.ptr[f + 1]); ++i) {
            T& at = v[f * frameSize + std::size_t(block.pixel[i])];
            const std::uint64_t sum = std::uint64_t(at) + block.count[i];
            if (sum > std::numeric_limits<T>::max())
                throw InputError(
                    sumBeyondType(block.where, block.pixel[i], block.first + f, sum, dtype));
            at = static_cast<T>(sum);
        }
}

} // namespace

Array denseOf(const SparseBlock& block, std::size_t height, std::size_t width, DType dtype) {
    Array out(dtype, {block.frames(), height, width});
    switch (dtype) {
    case DType::UInt8:
        addEntries<std::uint8_t>(block, dtype, out);
        break;
    case DType::UInt16:
        addEntries<std::uint16_t>(block, dtype, out);
        break;
    case DType::UInt32:
        addEntries<std::uint32_t>(block, dtype, out);
        break;
    default:
        throw InputError(block.where + ": sparse counts as " + dtypeName(dtype));
    }
    return out;
}

std::string sumBeyondType(const std::string& where, std::int64_t pixel, std::size_t frame,
                          std::uint64_t sum, DType dtype) {
    return where + ": pixel " + std::to_string(pixel) + " of frame " + std::to_string(frame) +
           " sums to " + std::to_string(sum) + ", beyond " + dtypeName(dtype) +
           " (listed more than once)";
}

} // namespace clscope
