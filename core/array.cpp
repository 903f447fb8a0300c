#include "core/array.hpp"

#include <numeric>
#include <stdexcept>

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
    bytes_.resize(bytes);
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
