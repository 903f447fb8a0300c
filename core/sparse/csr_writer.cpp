#include "core/sparse/csr_writer.hpp"

#include "core/errors.hpp"

#include <cstdio>
#include <type_traits>

namespace clscope {

const std::string CsrWriter::group = "/entry/data/sparse";

namespace {

DType countTypeOf(DType frames, const std::string& where) {
    if (frames == DType::UInt8 || frames == DType::UInt16) return DType::UInt16;
    if (frames == DType::UInt32 || frames == DType::Int32) return DType::UInt32;
    throw InputError(where + ": " + dtypeName(frames) +
                     " frames do not convert to sparse counts (uint16 or uint32)");
}

Array countArray(const std::vector<std::uint32_t>& count, DType type) {
    if (type == DType::UInt32) return makeArray(Shape{count.size()}, count);
    return makeArray(Shape{count.size()}, std::vector<std::uint16_t>(count.begin(), count.end()));
}

} // namespace

CsrWriter::CsrWriter(DType frames, std::size_t height, std::size_t width, std::string where)
    : countType_(countTypeOf(frames, where)), height_(height), width_(width),
      where_(std::move(where)) {
    if (height_ * width_ > std::size_t(INT32_MAX))
        throw InputError(where_ + ": " + std::to_string(height_ * width_) +
                         " pixels a frame do not fit an int32 pixel index");
}

template <class T> void CsrWriter::append(std::span<const T> values) {
    const std::size_t pixels = height_ * width_;
    for (std::size_t f = 0; f * pixels < values.size(); ++f) {
        for (std::size_t p = 0; p < pixels; ++p) {
            const T v = values[f * pixels + p];
            if (v == 0) continue;
            if constexpr (std::is_signed_v<T>)
                if (v < 0)
                    throw InputError(where_ + ": value " + std::to_string(v) + " at pixel " +
                                     std::to_string(p) + " of frame " +
                                     std::to_string(frameCount()) + " is not a count");
            pixel_.push_back(static_cast<std::int32_t>(p));
            count_.push_back(static_cast<std::uint32_t>(v));
        }
        ptr_.push_back(static_cast<std::int64_t>(pixel_.size()));
    }
}

void CsrWriter::add(const Array& frames) {
    if (frames.size() == 0) return;
    visitArray(frames, [&](auto values) {
        using T = std::remove_const_t<typename decltype(values)::element_type>;
        if constexpr (std::is_integral_v<T>) append<T>(values);
    });
}

std::string CsrWriter::write(H5Writer& out, const std::string& at) const {
    out.write(at + "/frame_ptr", makeArray(Shape{ptr_.size()}, ptr_));
    out.write(at + "/pixel", makeArray(Shape{pixel_.size()}, pixel_));
    out.write(at + "/count", countArray(count_, countType_));
    const auto n = [](std::size_t v) { return static_cast<std::int64_t>(v); };
    out.setIntegerArrayAttribute(at, "shape", {n(frameCount()), n(height_), n(width_)});
    const double pixels = double(frameCount()) * double(height_ * width_);
    char text[128];
    std::snprintf(text, sizeof text, "%zu non-zero pixels (%.3g %% occupancy), %s counts",
                  entries(), 100.0 * double(entries()) / pixels, dtypeName(countType_).c_str());
    return text;
}

} // namespace clscope
