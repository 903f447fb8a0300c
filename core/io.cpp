#include "core/io.hpp"

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/sparse/sparse_frames.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace clscope {

DataLocation parseLocation(const std::string& spec, const std::string& defaultPath) {
    const std::size_t colon = spec.rfind(":/");
    if (colon == std::string::npos) return {spec, defaultPath};
    return {spec.substr(0, colon), spec.substr(colon + 1)};
}

namespace {

const char* const frameTypes = "uint8, uint16, uint32, int32 or float32";

bool isFrameType(DType d) {
    return d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32 || d == DType::Int32 ||
           d == DType::Float32;
}

// Check that a dataset is a 2-D integer image of the expected size.
DatasetInfo checkImage(const H5Reader& file, const std::string& path, const char* what,
                       std::size_t height, std::size_t width) {
    const DatasetInfo di = file.info(path);
    if (di.shape.size() != 2 || !di.integer)
        throw InputError(file.where(path) + ": " + what +
                         " must be an integer array of rank 2 "
                         "(H,W), found " +
                         di.typeName + " " + shapeString(di.shape));
    if (height && (di.shape[0] != height || di.shape[1] != width))
        throw InputError(file.where(path) + ": " + what + " shape " + shapeString(di.shape) +
                         " does not match the frames' (" + std::to_string(height) + ", " +
                         std::to_string(width) + ")");
    return di;
}

// Values of a 1-D dataset from index `first` on, checked to fit uint16.
template <class Values>
std::vector<std::uint16_t> toUInt16(const H5Reader& file, const std::string& path, const Values& v,
                                    std::size_t first) {
    std::vector<std::uint16_t> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] < 0 || v[i] > 65535)
            throw InputError(file.where(path) + ": value " + std::to_string(v[i]) + " at index " +
                             std::to_string(first + i) + " does not fit uint16");
        out[i] = static_cast<std::uint16_t>(v[i]);
    }
    return out;
}

} // namespace

std::size_t checkUInt16Column(const H5Reader& file, const std::string& path) {
    const DatasetInfo di = file.info(path);
    if (di.shape.size() != 1 || !di.integer)
        throw InputError(file.where(path) + ": expected a 1-D uint16 array, found " + di.typeName +
                         " " + shapeString(di.shape));
    return di.shape[0];
}

std::vector<std::uint16_t> readUInt16Range(const H5Reader& file, const std::string& path,
                                           std::size_t first, std::size_t count) {
    const Array a = file.readSlab(path, first, count);
    std::vector<std::int64_t> values(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        values[i] = static_cast<std::int64_t>(a.valueAt(i));
    return toUInt16(file, path, values, first);
}

std::vector<double> readPositions(const H5Reader& file, const std::string& path) {
    const DatasetInfo di = file.info(path);
    if (di.shape.size() != 2 || di.shape[1] != 3 || !di.dtype || dtypeIsInteger(*di.dtype))
        throw InputError(file.where(path) + ": expected (N, 3) float32 or float64, found " +
                         di.typeName + " " + shapeString(di.shape));
    const Array a = file.read(path, DType::Float64);
    return {a.as<double>().begin(), a.as<double>().end()};
}

std::vector<std::string> frameDatasets(const H5Reader& file, const std::string& path) {
    if (file.hasObject(path) || path != paths::frames) return {path};
    std::vector<std::string> parts;
    for (int i = 1;; ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "/entry/data/data_%06d", i);
        if (!file.hasDataset(name)) break;
        parts.push_back(name);
    }
    if (parts.empty()) return {path};
    return parts;
}

DatasetInfo checkFrameDataset(const H5Reader& file, const std::string& path) {
    const DatasetInfo di = file.info(path);
    if (!di.dtype || !isFrameType(*di.dtype))
        throw InputError(file.where(path) + ": frames must be " + frameTypes + ", found " +
                         di.typeName);
    if (di.shape.size() != 2 && di.shape.size() != 3)
        throw InputError(file.where(path) +
                         ": frames must have rank 3 (T,H,W) or 2 (H,W), "
                         "found " +
                         shapeString(di.shape));
    if (std::find(di.shape.begin(), di.shape.end(), 0) != di.shape.end())
        throw InputError(file.where(path) + ": frames of shape " + shapeString(di.shape) +
                         " hold no pixels");
    return di;
}

Array readFrames(const H5Reader& file, const std::string& path, std::optional<double> frameTime) {
    if (const auto sparse = openSparseFrames(file, path, frameTime))
        return sparse->read(0, sparse->frameCount());
    const std::vector<std::string> parts = frameDatasets(file, path);
    std::vector<Array> arrays;
    std::size_t total = 0;
    for (const std::string& part : parts) {
        checkFrameDataset(file, part);
        arrays.push_back(file.read(part));
        const Array& a = arrays.back();
        if (a.dtype() != arrays[0].dtype() || a.height() != arrays[0].height() ||
            a.width() != arrays[0].width())
            throw InputError(file.where(part) + ": " + dtypeName(a.dtype()) + " " +
                             shapeString(a.shape()) + " does not match " + parts[0]);
        total += a.frameCount();
    }
    if (arrays.size() == 1) return std::move(arrays[0]);
    const auto joinedBytes =
        checkedBytes({total, arrays[0].height(), arrays[0].width()}, dtypeSize(arrays[0].dtype()));
    if (!joinedBytes) throw InputError(file.where(path) + ": the frames' total size overflows");
    checkHostMemory(*joinedBytes, file.where(path) + ": joining " + std::to_string(parts.size()) +
                                      " frame datasets");
    Array joined(arrays[0].dtype(), {total, arrays[0].height(), arrays[0].width()});
    std::size_t offset = 0;
    for (const Array& a : arrays) {
        std::memcpy(joined.bytes() + offset, a.bytes(), a.byteSize());
        offset += a.byteSize();
    }
    return joined;
}

namespace {

// A 2-D integer image as int64 values, checked against the expected size.
std::vector<std::int64_t> readIntImage(const H5Reader& file, const std::string& path,
                                       const char* what, std::size_t& height, std::size_t& width) {
    const DatasetInfo di = checkImage(file, path, what, height, width);
    height = di.shape[0], width = di.shape[1];
    const Array a = file.read(path, DType::Int64);
    return {a.as<std::int64_t>().begin(), a.as<std::int64_t>().end()};
}

} // namespace

LabelMask readLabels(const H5Reader& file, const std::string& path, std::size_t height,
                     std::size_t width) {
    const auto v = readIntImage(file, path, "q-bin labels", height, width);
    LabelMask mask{height, width, std::vector<std::int32_t>(v.size())};
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] > INT32_MAX || v[i] < INT32_MIN)
            throw InputError(file.where(path) + ": label " + std::to_string(v[i]) + " at pixel " +
                             std::to_string(i) + " does not fit int32");
        mask.labels[i] = static_cast<std::int32_t>(v[i]);
    }
    return mask;
}

PixelMask readPixelMask(const H5Reader& file, const std::string& path, std::size_t height,
                        std::size_t width) {
    const auto v = readIntImage(file, path, "pixel mask", height, width);
    PixelMask mask{height, width, std::vector<std::uint8_t>(v.size())};
    for (std::size_t i = 0; i < v.size(); ++i)
        mask.bad[i] = v[i] != 0;
    return mask;
}

Array labelsArray(const LabelMask& mask) {
    return makeArray(Shape{mask.height, mask.width}, mask.labels);
}

Array pixelMaskArray(const PixelMask& mask) {
    return makeArray(Shape{mask.height, mask.width}, mask.bad);
}

} // namespace clscope
