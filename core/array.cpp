#include "core/array.hpp"

#include <cstring>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace clscope {

std::string dtypeName(DType dtype) {
    switch (dtype) {
    case DType::UInt8:
        return "uint8";
    case DType::UInt16:
        return "uint16";
    case DType::UInt32:
        return "uint32";
    case DType::Int32:
        return "int32";
    case DType::Int64:
        return "int64";
    case DType::Float32:
        return "float32";
    case DType::Float64:
        return "float64";
    }
    return "unknown";
}

std::size_t dtypeSize(DType dtype) {
    switch (dtype) {
    case DType::UInt8:
        return 1;
    case DType::UInt16:
        return 2;
    case DType::UInt32:
    case DType::Int32:
    case DType::Float32:
        return 4;
    case DType::Int64:
    case DType::Float64:
        return 8;
    }
    return 0;
}

bool dtypeIsInteger(DType dtype) {
    return dtype != DType::Float32 && dtype != DType::Float64;
}

bool dtypeIsUnsigned(DType dtype) {
    return dtype == DType::UInt8 || dtype == DType::UInt16 || dtype == DType::UInt32;
}

std::string shapeString(const Shape& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

Array::Array(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {
    size_ = 1;
    std::size_t bytes = 0;
    for (std::size_t d : shape_)
        if (__builtin_mul_overflow(size_, d, &size_))
            throw std::length_error("array shape " + shapeString(shape_) + " overflows");
    if (__builtin_mul_overflow(size_, dtypeSize(dtype_), &bytes))
        throw std::length_error("array shape " + shapeString(shape_) + " overflows");
    byteSize_ = bytes;
    allocate();
}

void Array::allocate() {
    HostBlock block = HostAllocatorScope::allocate(byteSize_);
    if (block.data) {
        owner_ = std::move(block.owner), data_ = block.data;
        std::memset(data_, 0, byteSize_);
    } else {
        heap_.resize(byteSize_);
        data_ = heap_.data();
    }
}

// A default (empty) array copies as empty: its shape () would make one element.
Array::Array(const Array& other)
    : dtype_(other.dtype_), shape_(other.shape_), size_(other.size_), byteSize_(other.byteSize_) {
    allocate();
    if (byteSize_) std::memcpy(data_, other.data_, byteSize_);
}

Array Array::frameView(std::size_t first, std::size_t count) const {
    if (rank() != 3 || first + count > frameCount())
        throw std::logic_error("Array::frameView: frames outside the stack");
    Array view;
    view.dtype_ = dtype_, view.shape_ = {count, height(), width()};
    view.size_ = count * frameSize(), view.byteSize_ = view.size_ * dtypeSize(dtype_);
    view.data_ = const_cast<std::byte*>(data_) + first * frameSize() * dtypeSize(dtype_);
    return view;
}

Array::Array(Array&& other) noexcept
    : dtype_(other.dtype_), shape_(std::move(other.shape_)), size_(std::exchange(other.size_, 0)),
      byteSize_(std::exchange(other.byteSize_, 0)), heap_(std::move(other.heap_)),
      owner_(std::move(other.owner_)), data_(std::exchange(other.data_, nullptr)) {}

Array& Array::operator=(const Array& other) {
    if (this != &other) *this = Array(other);
    return *this;
}

Array& Array::operator=(Array&& other) noexcept {
    if (this == &other) return *this;
    dtype_ = other.dtype_, shape_ = std::move(other.shape_);
    size_ = std::exchange(other.size_, 0), byteSize_ = std::exchange(other.byteSize_, 0);
    heap_ = std::move(other.heap_), owner_ = std::move(other.owner_);
    data_ = std::exchange(other.data_, nullptr);
    return *this;
}

namespace {
thread_local HostAllocatorScope* innermostScope = nullptr;
} // namespace

HostAllocatorScope::HostAllocatorScope(HostAllocator allocate, std::size_t minBytes)
    : allocate_(std::move(allocate)), minBytes_(minBytes), outer_(innermostScope) {
    innermostScope = this;
}

HostAllocatorScope::~HostAllocatorScope() {
    innermostScope = outer_;
}

HostBlock HostAllocatorScope::allocate(std::size_t bytes) {
    const HostAllocatorScope* scope = innermostScope;
    if (!scope || bytes == 0 || bytes < scope->minBytes_) return {};
    return scope->allocate_(bytes);
}

double Array::valueAt(std::size_t i) const {
    return visitArray(*this, [i](auto values) { return static_cast<double>(values[i]); });
}

void Array::checkType(DType wanted) const {
    if (wanted != dtype_)
        throw std::logic_error("array holds " + dtypeName(dtype_) + ", accessed as " +
                               dtypeName(wanted));
}

} // namespace clscope
