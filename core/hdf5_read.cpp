// H5Reader: read-only access with errors that name the file and the dataset.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/hdf5_util.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace clscope {

using h5::Handle;

namespace {

using Lock = std::lock_guard<std::recursive_mutex>;

// Split "/a/b/c" into its prefixes "/a", "/a/b", "/a/b/c".
std::vector<std::string> prefixes(const std::string& path) {
    std::vector<std::string> out;
    for (std::size_t pos = 1; pos <= path.size(); ++pos)
        if (pos == path.size() || path[pos] == '/') out.push_back(path.substr(0, pos));
    return out;
}

DatasetInfo describe(hid_t dset) {
    DatasetInfo info;
    Handle space(H5Dget_space(dset), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    std::vector<hsize_t> dims(rank > 0 ? rank : 0);
    if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    info.shape.assign(dims.begin(), dims.end());
    Handle type(H5Dget_type(dset), H5Tclose);
    info.dtype = h5::dtypeOfStored(type.get(), info.typeName);
    info.integer = H5Tget_class(type.get()) == H5T_INTEGER;
    return info;
}

std::string attributeText(hid_t attr);

// The attribute `name` of the object at `path` (which exists), open; not valid when absent.
Handle openAttribute(hid_t file, const std::string& path, const std::string& name) {
    if (H5Aexists_by_name(file, path.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return {};
    return {H5Aopen_by_name(file, path.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
}

} // namespace

// The size of the file that holds a dataset: this file's, or the target's of an external link.
std::uint64_t H5Reader::bytesOfFileHolding(std::int64_t dset) const {
    Handle holder(H5Iget_file_id(dset), H5Fclose);
    const auto name = [](hid_t file) {
        std::string text(4096, '\0');
        const ssize_t n = H5Fget_name(file, text.data(), text.size());
        text.resize(n > 0 ? std::min<std::size_t>(static_cast<std::size_t>(n), 4095) : 0);
        return text;
    };
    hsize_t size = 0;
    if (!holder.valid() || name(holder.get()) == name(file_) ||
        H5Fget_filesize(holder.get(), &size) < 0)
        return fileBytes_;
    return size;
}

void H5Reader::checkStorageOnce(std::int64_t dset, const std::string& path, const Shape& stored,
                                bool whole) const {
    const std::string key = (whole ? "whole:" : "slab:") + path;
    if (!checked_.insert(key).second) return;
    try {
        h5::checkStorage(dset, where(path), fileName_, bytesOfFileHolding(dset), stored, whole);
    } catch (...) {
        checked_.erase(key);
        throw;
    }
}

void H5Reader::checkStored(const std::string& path) const {
    Lock lock(h5::mutex());
    Handle dset(openDataset(path), H5Dclose);
    checkStorageOnce(dset.get(), path, describe(dset.get()).shape, false);
}

void H5Reader::checkReadable(std::int64_t dset, const std::string& path, const Shape& stored,
                             const Shape& shape, DType memType) const {
    checkStorageOnce(dset, path, stored, stored == shape);
    const auto bytes = checkedBytes(shape, dtypeSize(memType));
    if (!bytes)
        throw InputError(where(path) + ": shape " + shapeString(shape) + " overflows 64 bits");
    checkHostMemory(*bytes, where(path) + " " + shapeString(shape) + " " + dtypeName(memType));
}

H5Reader::H5Reader(const std::string& fileName) : fileName_(fileName) {
    Lock lock(h5::mutex());
    h5::silenceErrors();
    std::error_code ec;
    if (!std::filesystem::exists(fileName, ec)) throw InputError(fileName + ": file not found");
    if (std::filesystem::is_directory(fileName, ec))
        throw InputError(fileName + ": is a directory, expected an HDF5 file");
    if (!std::filesystem::is_regular_file(fileName, ec))
        throw InputError(fileName + ": not a regular file (a FIFO, socket or device), expected "
                                    "an HDF5 file");
    if (::access(fileName.c_str(), R_OK) != 0)
        throw InputError(fileName + ": cannot read: " + std::strerror(errno));
    h5::probeFile(fileName);
    if (H5Fis_hdf5(fileName.c_str()) <= 0) throw InputError(fileName + ": not an HDF5 file");
    fileBytes_ = std::filesystem::file_size(fileName, ec);
    if (ec) fileBytes_ = UINT64_MAX;
    Handle fapl = h5::readAccessList();
    file_ = H5Fopen(fileName.c_str(), H5F_ACC_RDONLY, fapl.get());
    if (file_ < 0)
        throw InputError(fileName +
                         ": cannot open as HDF5 (truncated or corrupt file?): " + h5::lastError());
}

H5Reader::H5Reader(const std::string& name, const void* image, std::size_t size, Image origin)
    : fileName_(name), fileBytes_(size) {
    Lock lock(h5::mutex());
    h5::silenceErrors();
    if (origin == Image::Outside) h5::probeImage(name, image, size);
    Handle fapl = h5::readAccessList();
    // The core driver reads the image from memory; H5Pset_file_image copies it.
    if (H5Pset_fapl_core(fapl.get(), 1 << 16, false) < 0 ||
        H5Pset_file_image(fapl.get(), const_cast<void*>(image), size) < 0)
        throw InputError(name + ": cannot hold the file image: " + h5::lastError());
    // The core driver refuses an image under the name of a file on disk ("file already
    // exists"): an image of our own (e.g. a Rigaku file's empty roles file, named after the
    // .bin file) opens under a name of its own; `name` still labels it.
    static std::atomic<std::uint64_t> images{0};
    const std::string openName = origin == Image::WrittenHere
                                     ? "clscope image " + std::to_string(++images) + " of " + name
                                     : name;
    file_ = H5Fopen(openName.c_str(), H5F_ACC_RDONLY, fapl.get());
    if (file_ < 0)
        throw InputError(name +
                         ": cannot open as HDF5 (truncated or corrupt file?): " + h5::lastError());
}

H5Reader::~H5Reader() {
    Lock lock(h5::mutex());
    if (file_ >= 0) H5Fclose(file_);
}

bool H5Reader::hasObject(const std::string& path) const {
    Lock lock(h5::mutex());
    if (path.empty() || path[0] != '/') return false;
    if (path == "/") return true;
    for (const std::string& prefix : prefixes(path)) {
        if (H5Lexists(file_, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
        if (H5Oexists_by_name(file_, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    }
    h5::lastError(); // clear what a dangling link left on the stack
    return true;
}

bool H5Reader::hasDataset(const std::string& path) const {
    Lock lock(h5::mutex());
    if (!hasObject(path)) return false;
    Handle obj(H5Oopen(file_, path.c_str(), H5P_DEFAULT), H5Oclose);
    return obj.valid() && H5Iget_type(obj.get()) == H5I_DATASET;
}

std::int64_t H5Reader::openDataset(const std::string& path) const {
    if (!hasObject(path)) throw InputError(where(path) + ": dataset not found");
    if (!hasDataset(path)) throw InputError(where(path) + ": is not a dataset");
    hid_t dset = H5Dopen2(file_, path.c_str(), H5P_DEFAULT);
    if (dset < 0) throw InputError(where(path) + ": cannot open dataset: " + h5::lastError());
    return dset;
}

DatasetInfo H5Reader::info(const std::string& path) const {
    Lock lock(h5::mutex());
    Handle dset(openDataset(path), H5Dclose);
    return describe(dset.get());
}

Array H5Reader::read(const std::string& path, std::optional<DType> memType) const {
    Lock lock(h5::mutex());
    Handle dset(openDataset(path), H5Dclose);
    const DatasetInfo di = describe(dset.get());
    if (!memType && !di.dtype)
        throw InputError(where(path) + ": unsupported element type " + di.typeName);
    checkReadable(dset.get(), path, di.shape, di.shape, memType ? *memType : *di.dtype);
    Array out(memType ? *memType : *di.dtype, di.shape);
    if (out.size() > 0 && H5Dread(dset.get(), h5::nativeType(out.dtype()), H5S_ALL, H5S_ALL,
                                  H5P_DEFAULT, out.bytes()) < 0)
        throw InputError(where(path) +
                         ": cannot read dataset (truncated file, or a missing "
                         "compression filter?): " +
                         h5::lastError());
    return out;
}

Array H5Reader::readSlab(const std::string& path, std::size_t first, std::size_t count,
                         std::optional<DType> memType) const {
    Lock lock(h5::mutex());
    Handle dset(openDataset(path), H5Dclose);
    DatasetInfo di = describe(dset.get());
    if (!memType && !di.dtype)
        throw InputError(where(path) + ": unsupported element type " + di.typeName);
    if (memType) di.dtype = memType;
    if (di.shape.empty() || count > di.shape[0] || first > di.shape[0] - count)
        throw InputError(where(path) + ": frames " + std::to_string(first) + ".." +
                         std::to_string(first + count) + " out of range for shape " +
                         shapeString(di.shape));
    Shape shape = di.shape;
    shape[0] = count;
    checkReadable(dset.get(), path, di.shape, shape, *di.dtype);
    Array out(*di.dtype, shape);
    std::vector<hsize_t> start(shape.size(), 0), dims(shape.begin(), shape.end());
    start[0] = first;
    Handle fileSpace(H5Dget_space(dset.get()), H5Sclose);
    H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start.data(), nullptr, dims.data(),
                        nullptr);
    Handle memSpace(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                    H5Sclose);
    if (out.size() > 0 && H5Dread(dset.get(), h5::nativeType(out.dtype()), memSpace.get(),
                                  fileSpace.get(), H5P_DEFAULT, out.bytes()) < 0)
        throw InputError(where(path) +
                         ": cannot read frames (truncated file, or a missing "
                         "compression filter?): " +
                         h5::lastError());
    return out;
}

double H5Reader::readScalar(const std::string& path) const {
    const DatasetInfo di = info(path);
    if (!di.dtype) // a string or compound: HDF5 cannot convert it
        throw InputError(where(path) + ": expected a number, found " + di.typeName);
    const Array a = read(path, DType::Float64);
    if (a.size() != 1)
        throw InputError(where(path) + ": expected a scalar, found shape " +
                         shapeString(a.shape()));
    return a.as<double>()[0];
}

std::optional<std::string> H5Reader::stringAttribute(const std::string& path,
                                                     const std::string& name) const {
    Lock lock(h5::mutex());
    const Handle attr = hasObject(path) ? openAttribute(file_, path, name) : Handle();
    if (!attr.valid()) return std::nullopt;
    return attributeText(attr.get());
}

std::optional<std::vector<std::int64_t>> H5Reader::integerAttribute(const std::string& path,
                                                                    const std::string& name) const {
    Lock lock(h5::mutex());
    const Handle attr = hasObject(path) ? openAttribute(file_, path, name) : Handle();
    if (!attr.valid()) return std::nullopt;
    Handle type(H5Aget_type(attr.get()), H5Tclose);
    Handle space(H5Aget_space(attr.get()), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    // A handful of values is all an attribute like `shape` holds: a damaged one may declare
    // billions, which would be allocated before being refused.
    if (H5Tget_class(type.get()) != H5T_INTEGER || n < 0 || n > 64)
        throw InputError(where(path) + ": attribute " + name + " must hold integers, found " +
                         attributeText(attr.get()));
    std::vector<std::int64_t> values(static_cast<std::size_t>(n));
    if (n > 0 && H5Aread(attr.get(), H5T_NATIVE_INT64, values.data()) < 0)
        throw InputError(where(path) + ": cannot read attribute " + name + ": " + h5::lastError());
    return values;
}

namespace {

// Render an attribute as text: strings as they are, numbers comma-separated.
std::string attributeText(hid_t attr) {
    Handle type(H5Aget_type(attr), H5Tclose);
    Handle space(H5Aget_space(attr), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    // Attributes are small; a damaged one may declare billions of values or a huge string
    // size, which HDF5 would allocate (and convert) before we could render 16 of them.
    constexpr std::uint64_t maxBytes = 1 << 20;
    std::uint64_t bytes = 0;
    if (n < 0 ||
        __builtin_mul_overflow(static_cast<std::uint64_t>(n),
                               std::max<std::size_t>(H5Tget_size(type.get()), 8), &bytes) ||
        bytes > maxBytes)
        return std::to_string(n) + " values (too large to show)";
    if (H5Tget_class(type.get()) == H5T_STRING) {
        if (H5Tis_variable_str(type.get()) > 0) {
            Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
            H5Tset_size(mem.get(), H5T_VARIABLE);
            H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
            std::vector<char*> ptrs(n > 0 ? n : 1, nullptr);
            if (H5Aread(attr, mem.get(), ptrs.data()) < 0) return "?";
            std::string out; // an array of strings: all of them, as numbers are shown
            for (std::size_t i = 0; i < ptrs.size(); ++i)
                out += (i ? ", " : "") + std::string(ptrs[i] ? ptrs[i] : "");
            H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, ptrs.data());
            return out;
        }
        const std::size_t size = H5Tget_size(type.get());
        std::string all(size * (n > 0 ? n : 1), '\0'), out;
        H5Aread(attr, type.get(), all.data());
        for (std::size_t i = 0; i * size < all.size(); ++i) {
            const std::string one = all.substr(i * size, size);
            out += (i ? ", " : "") + one.substr(0, one.find('\0'));
        }
        return out;
    }
    std::string name;
    if (!h5::dtypeOfStored(type.get(), name)) return "<" + name + ">";
    std::vector<double> values(n > 0 ? n : 1);
    if (H5Aread(attr, H5T_NATIVE_DOUBLE, values.data()) < 0) return "?";
    std::string out;
    for (std::size_t i = 0; i < values.size() && i < 16; ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.10g", values[i]);
        out += (i ? ", " : "") + std::string(buf);
    }
    return values.size() > 16 ? out + ", ..." : out;
}

struct IterState {
    const H5Reader* reader;
    hid_t file;
    std::string group;
    std::vector<H5Node>* out;
};

herr_t attrVisit(hid_t loc, const char* name, const H5A_info_t*, void* data) {
    auto* node = static_cast<H5Node*>(data);
    Handle attr(H5Aopen(loc, name, H5P_DEFAULT), H5Aclose);
    node->attributes[name] = attributeText(attr.get());
    return 0;
}

void describeLink(H5Node& node, hid_t file, const H5L_info_t* link) {
    if (link->type != H5L_TYPE_EXTERNAL) return;
    std::vector<char> buf(link->u.val_size + 1);
    const char *fileName = nullptr, *objName = nullptr;
    unsigned flags = 0;
    if (H5Lget_val(file, node.path.c_str(), buf.data(), buf.size(), H5P_DEFAULT) >= 0 &&
        H5Lunpack_elink_val(buf.data(), buf.size(), &flags, &fileName, &objName) >= 0)
        node.note = std::string("external link to ") + fileName + ":" + objName;
}

herr_t linkVisit(hid_t, const char* name, const H5L_info_t* link, void* data) {
    auto* st = static_cast<IterState*>(data);
    H5Node node;
    node.name = name;
    node.path = (st->group == "/" ? "/" : st->group + "/") + name;
    describeLink(node, st->file, link);
    Handle obj(H5Oopen(st->file, node.path.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj.valid()) {
        node.kind = H5Node::Broken;
        h5::lastError();
    } else {
        const H5I_type_t t = H5Iget_type(obj.get());
        node.kind = t == H5I_GROUP     ? H5Node::Group
                    : t == H5I_DATASET ? H5Node::Dataset
                                       : H5Node::Other;
        if (node.kind == H5Node::Dataset) node.info = describe(obj.get());
        hsize_t idx = 0;
        H5Aiterate2(obj.get(), H5_INDEX_NAME, H5_ITER_INC, &idx, attrVisit, &node);
    }
    st->out->push_back(std::move(node));
    return 0;
}

} // namespace

std::vector<H5Node> H5Reader::children(const std::string& group) const {
    Lock lock(h5::mutex());
    if (!hasObject(group)) throw InputError(where(group) + ": group not found");
    Handle g(H5Gopen2(file_, group.c_str(), H5P_DEFAULT), H5Gclose);
    if (!g.valid()) throw InputError(where(group) + ": is not a group");
    std::vector<H5Node> out;
    IterState st{this, file_, group, &out};
    hsize_t idx = 0;
    H5Literate(g.get(), H5_INDEX_NAME, H5_ITER_INC, &idx, linkVisit, &st);
    return out;
}

} // namespace clscope
