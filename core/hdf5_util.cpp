#include "core/hdf5_util.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <zlib.h>

namespace clscope::h5 {

namespace {
std::recursive_mutex* current = new std::recursive_mutex;
}

std::recursive_mutex& mutex() {
    silenceErrors(); // every thread that calls HDF5 takes this lock first
    return *current;
}

// The forked probe's child: the parent's mutex is held by a thread id the child does not have.
void replaceMutexInChild() {
    current = new std::recursive_mutex;
}

// Debian's libhdf5 is thread-safe: the printing is switched per thread (a stack of 11-20 lines
// came before clscope's message where a pipeline thread read a damaged chunk, issue 52).
// CLSCOPE_HDF5_ERRORS=1 keeps it, to see libhdf5's own account.
void silenceErrors() {
    thread_local bool silenced = false;
    if (silenced) return;
    silenced = true;
    static const bool keep = [] {
        const char* keep = std::getenv("CLSCOPE_HDF5_ERRORS");
        return keep && std::string(keep) == "1";
    }();
    if (!keep) H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

namespace {
herr_t innermost(unsigned n, const H5E_error2_t* err, void* out) {
    if (n == 0 && err->desc) *static_cast<std::string*>(out) = err->desc;
    return 0;
}
} // namespace

std::string lastError() {
    std::string message;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &message);
    H5Eclear2(H5E_DEFAULT);
    // The sec2 driver's "file write failed: time = ..., error message = 'No space left on
    // device', buf = ..." in one line: the operation and the system's reason only.
    const std::string key = "error message = '";
    const std::size_t at = message.find(key), colon = message.find(':');
    if (at != std::string::npos && colon != std::string::npos) {
        const std::size_t from = at + key.size(), to = message.find('\'', from);
        return message.substr(0, colon) + ": " + message.substr(from, to - from);
    }
    return message;
}

std::vector<std::byte> shuffleDeflate(const Array& frame, int level) {
    const std::size_t element = dtypeSize(frame.dtype()), count = frame.size();
    const std::byte* in = frame.bytes();
    std::vector<std::byte> shuffled;
    if (element > 1) { // byte b of element i at b * count + i (the shuffle filter)
        shuffled.resize(frame.byteSize());
        for (std::size_t i = 0; i < count; ++i)
            for (std::size_t b = 0; b < element; ++b)
                shuffled[b * count + i] = in[i * element + b];
        in = shuffled.data();
    }
    uLongf bytes = compressBound(uLong(frame.byteSize()));
    std::vector<std::byte> out(bytes);
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &bytes, reinterpret_cast<const Bytef*>(in),
                  uLong(frame.byteSize()), level) != Z_OK)
        throw std::runtime_error("zlib: cannot compress a chunk");
    out.resize(bytes);
    return out;
}

Handle readAccessList() {
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
#if H5_VERSION_GE(1, 10, 7)
    H5Pset_file_locking(fapl.get(), false, true);
#endif
    return fapl;
}

std::optional<OpenDataset> openDataset(const std::string& fileName, const std::string& path) {
    OpenDataset d;
    d.file = Handle(H5Fopen(fileName.c_str(), H5F_ACC_RDONLY, readAccessList().get()), H5Fclose);
    if (!d.file.valid() || H5Lexists(d.file.get(), path.c_str(), H5P_DEFAULT) <= 0)
        return std::nullopt;
    d.dataset = Handle(H5Dopen2(d.file.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.dataset.valid()) return std::nullopt;
    return d;
}

std::optional<FrameChunks> frameChunks(hid_t dataset) {
    const Handle dcpl(H5Dget_create_plist(dataset), H5Pclose);
    const Handle type(H5Dget_type(dataset), H5Tclose);
    const Handle space(H5Dget_space(dataset), H5Sclose);
    std::string typeName;
    const std::optional<DType> dtype = dtypeOfStored(type.get(), typeName);
    hsize_t dims[3] = {0, 0, 0}, chunk[3] = {0, 0, 0};
    if (!dcpl.valid() || H5Pget_layout(dcpl.get()) != H5D_CHUNKED || !dtype ||
        H5Tequal(type.get(), nativeType(*dtype)) <= 0 ||
        H5Sget_simple_extent_ndims(space.get()) != 3 ||
        H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 3 ||
        H5Pget_chunk(dcpl.get(), 3, chunk) != 3 || chunk[0] == 0 || chunk[1] != dims[1] ||
        chunk[2] != dims[2] || dims[0] == 0)
        return std::nullopt;
    return FrameChunks{dims[0], dims[1], dims[2], chunk[0], *dtype};
}

std::optional<ChunkPlace> chunkPlace(hid_t dataset, const hsize_t* offset, const Holder& holder) {
    ChunkPlace p;
    haddr_t address = HADDR_UNDEF;
    hsize_t bytes = 0;
    if (H5Dget_chunk_info_by_coord(dataset, offset, &p.filterMask, &address, &bytes) < 0 ||
        address == HADDR_UNDEF || bytes == 0 || holder.base + address > holder.bytes ||
        bytes > holder.bytes - holder.base - address)
        return std::nullopt;
    p.at = holder.base + address, p.bytes = bytes; // chunk addresses leave the user block out
    return p;
}

std::optional<Holder> holderOf(hid_t object) {
    const ssize_t nameBytes = H5Fget_name(object, nullptr, 0);
    if (nameBytes <= 0) return std::nullopt;
    Holder h;
    h.file.resize(std::size_t(nameBytes));
    if (H5Fget_name(object, h.file.data(), h.file.size() + 1) < 0) return std::nullopt;
    const Handle file(H5Iget_file_id(object), H5Fclose);
    const Handle fcpl(file.valid() ? H5Fget_create_plist(file.get()) : -1, H5Pclose);
    hsize_t userBlock = 0;
    if (!fcpl.valid() || H5Pget_userblock(fcpl.get(), &userBlock) < 0) return std::nullopt;
    h.base = userBlock;
    std::error_code ec;
    h.bytes = std::filesystem::file_size(h.file, ec);
    if (ec) return std::nullopt;
    return h;
}

std::optional<RawPlace> rawPlace(const std::string& fileName, const std::string& path) {
    std::lock_guard lock(mutex());
    const std::optional<OpenDataset> opened = openDataset(fileName, path);
    if (!opened) return std::nullopt;
    const Handle& dset = opened->dataset;
    const Handle dcpl(H5Dget_create_plist(dset.get()), H5Pclose);
    const Handle type(H5Dget_type(dset.get()), H5Tclose);
    std::string typeName;
    const std::optional<DType> dtype = dtypeOfStored(type.get(), typeName);
    const haddr_t address = H5Dget_offset(dset.get());
    if (!dcpl.valid() || H5Pget_layout(dcpl.get()) != H5D_CONTIGUOUS ||
        H5Pget_nfilters(dcpl.get()) != 0 || H5Pget_external_count(dcpl.get()) != 0 || !dtype ||
        H5Tequal(type.get(), nativeType(*dtype)) <= 0 || address == HADDR_UNDEF)
        return std::nullopt;
    const std::optional<Holder> holder = holderOf(dset.get());
    if (!holder) return std::nullopt;
    // H5Dget_offset counts the user block (H5Dget_chunk_info's addresses do not).
    return RawPlace{holder->file, address, H5Dget_storage_size(dset.get())};
}

hid_t nativeType(DType dtype) {
    switch (dtype) {
    case DType::UInt8:
        return H5T_NATIVE_UINT8;
    case DType::UInt16:
        return H5T_NATIVE_UINT16;
    case DType::UInt32:
        return H5T_NATIVE_UINT32;
    case DType::Int32:
        return H5T_NATIVE_INT32;
    case DType::Int64:
        return H5T_NATIVE_INT64;
    case DType::Float32:
        return H5T_NATIVE_FLOAT;
    case DType::Float64:
        return H5T_NATIVE_DOUBLE;
    }
    return H5T_NATIVE_UINT8;
}

std::optional<DType> dtypeOfStored(hid_t type, std::string& name) {
    const H5T_class_t cls = H5Tget_class(type);
    const std::size_t size = H5Tget_size(type);
    if (cls == H5T_INTEGER) {
        const bool isSigned = H5Tget_sign(type) == H5T_SGN_2;
        name = (isSigned ? "int" : "uint") + std::to_string(size * 8);
        if (!isSigned && size == 1) return DType::UInt8;
        if (!isSigned && size == 2) return DType::UInt16;
        if (!isSigned && size == 4) return DType::UInt32;
        if (isSigned && size == 4) return DType::Int32;
        if (isSigned && size == 8) return DType::Int64;
        return std::nullopt;
    }
    if (cls == H5T_FLOAT) {
        name = "float" + std::to_string(size * 8);
        if (size == 4) return DType::Float32;
        if (size == 8) return DType::Float64;
        return std::nullopt;
    }
    static const char* names[] = {"time",      "string", "bitfield", "opaque", "compound",
                                  "reference", "enum",   "vlen",     "array"};
    const int index = static_cast<int>(cls) - static_cast<int>(H5T_TIME);
    name = index >= 0 && index < 9 ? names[index] : "unknown";
    return std::nullopt;
}

bool bitshuffleLz4Only(hid_t dcpl) {
#if defined(CLSCOPE_HAVE_DECOMPRESS)
    if (H5Pget_nfilters(dcpl) != 1) return false;
    unsigned flags = 0, config = 0, values[8] = {};
    std::size_t count = 8;
    char name[64];
    if (H5Pget_filter2(dcpl, 0, &flags, &count, values, sizeof name, name, &config) !=
        bitshuffleFilter)
        return false;
    return count >= 5 && values[4] == 2;
#else
    (void)dcpl;
    return false;
#endif
}

} // namespace clscope::h5
