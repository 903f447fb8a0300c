// Typed n-dimensional arrays (frame stacks, images, masks) with contiguous storage.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace clscope {

// Element types clscope reads and writes.
enum class DType { UInt8, UInt16, UInt32, Int32, Int64, Float32, Float64 };

std::string dtypeName(DType dtype);
std::size_t dtypeSize(DType dtype);
bool dtypeIsInteger(DType dtype);
bool dtypeIsUnsigned(DType dtype);

template <class T> constexpr DType dtypeOf();
template <> constexpr DType dtypeOf<std::uint8_t>() {
    return DType::UInt8;
}
template <> constexpr DType dtypeOf<std::uint16_t>() {
    return DType::UInt16;
}
template <> constexpr DType dtypeOf<std::uint32_t>() {
    return DType::UInt32;
}
template <> constexpr DType dtypeOf<std::int32_t>() {
    return DType::Int32;
}
template <> constexpr DType dtypeOf<std::int64_t>() {
    return DType::Int64;
}
template <> constexpr DType dtypeOf<float>() {
    return DType::Float32;
}
template <> constexpr DType dtypeOf<double>() {
    return DType::Float64;
}

using Shape = std::vector<std::size_t>;
std::string shapeString(const Shape& shape);

// Memory for an array's elements from elsewhere than the heap: `data` (at least the bytes
// asked), valid while `owner` lives.
struct HostBlock {
    std::byte* data = nullptr;
    std::shared_ptr<void> owner;
};
using HostAllocator = std::function<HostBlock(std::size_t bytes)>;

// While one lives, arrays of at least minBytes made on this thread (copies too) take their
// memory, zeroed, from `allocate`: e.g. frames read or generated straight into pinned host
// memory that a device uploads from at DMA speed. The innermost scope applies.
class HostAllocatorScope {
  public:
    HostAllocatorScope(HostAllocator allocate, std::size_t minBytes);
    ~HostAllocatorScope();
    HostAllocatorScope(const HostAllocatorScope&) = delete;
    HostAllocatorScope& operator=(const HostAllocatorScope&) = delete;
    // The memory for an array of `bytes` made now: empty where the heap is to be used.
    static HostBlock allocate(std::size_t bytes);

  private:
    HostAllocator allocate_;
    std::size_t minBytes_;
    HostAllocatorScope* outer_;
};

// A dense row-major array of one dtype. Frame stacks are (T,H,W), images (H,W).
class Array {
  public:
    Array() = default;
    Array(DType dtype, Shape shape);
    Array(const Array& other);
    Array(Array&& other) noexcept;
    Array& operator=(const Array& other);
    Array& operator=(Array&& other) noexcept;

    DType dtype() const { return dtype_; }
    const Shape& shape() const { return shape_; }
    std::size_t rank() const { return shape_.size(); }
    std::size_t size() const { return size_; }
    std::size_t byteSize() const { return byteSize_; }
    std::byte* bytes() { return data_; }
    const std::byte* bytes() const { return data_; }

    // Typed views; throw std::logic_error if T is not the stored dtype.
    template <class T> std::span<T> as() {
        checkType(dtypeOf<T>());
        return {reinterpret_cast<T*>(data_), size_};
    }
    template <class T> std::span<const T> as() const {
        checkType(dtypeOf<T>());
        return {reinterpret_cast<const T*>(data_), size_};
    }
    // Element i converted to double, whatever the dtype.
    double valueAt(std::size_t i) const;

    // Frame stack helpers: (T,H,W) or (H,W) counted as one frame.
    std::size_t frameCount() const { return rank() == 3 ? shape_[0] : 1; }
    std::size_t height() const { return shape_[rank() - 2]; }
    std::size_t width() const { return shape_[rank() - 1]; }
    std::size_t frameSize() const { return height() * width(); }

    // Frames [first, first + count) of a (T,H,W) stack as a (count,H,W) array over this one's
    // memory (no copy: a split run's parts upload from where the stack is, pinned memory
    // included). It does not own that memory: the stack must outlive it. Copies of it are deep.
    Array frameView(std::size_t first, std::size_t count) const;

  private:
    void checkType(DType wanted) const;
    void allocate(); // byteSize_ bytes, zeroed, from the HostAllocatorScope or the heap
    DType dtype_ = DType::UInt8;
    Shape shape_;
    std::size_t size_ = 0, byteSize_ = 0;
    std::vector<std::byte> heap_; // the elements, unless a HostAllocatorScope gave `owner_`
    std::shared_ptr<void> owner_; // keeps the memory of a HostAllocatorScope alive
    std::byte* data_ = nullptr;   // heap_.data() or that memory
};

// Call f(span<const T>) with the array's elements in their own type.
template <class F> decltype(auto) visitArray(const Array& a, F&& f) {
    switch (a.dtype()) {
    case DType::UInt8:
        return f(a.as<std::uint8_t>());
    case DType::UInt16:
        return f(a.as<std::uint16_t>());
    case DType::UInt32:
        return f(a.as<std::uint32_t>());
    case DType::Int32:
        return f(a.as<std::int32_t>());
    case DType::Int64:
        return f(a.as<std::int64_t>());
    case DType::Float32:
        return f(a.as<float>());
    case DType::Float64:
        break;
    }
    return f(a.as<double>());
}

// Build an array from a vector of values.
template <class T> Array makeArray(Shape shape, const std::vector<T>& values) {
    Array a(dtypeOf<T>(), std::move(shape));
    std::copy(values.begin(), values.end(), a.as<T>().begin());
    return a;
}

} // namespace clscope
