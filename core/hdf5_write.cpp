// H5Writer: outputs are written under a temporary name and renamed when committed.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/hdf5_util.hpp"
#include "core/output_check.hpp"
#include "core/temp_file.hpp"

#include <algorithm>
#include <filesystem>
#include <span>
#include <thread>

namespace clscope {

using h5::Handle;

namespace {

using Lock = std::lock_guard<std::recursive_mutex>;
constexpr H5Z_filter_t bitshuffleFilter = 32008;
constexpr int gzipLevel = 4; // Compression::Gzip: shuffle, then deflate at this level

// Link creation that makes missing parent groups.
Handle intermediateGroups() {
    Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    H5Pset_create_intermediate_group(lcpl.get(), 1);
    return lcpl;
}

// Chunks of one frame (or the whole array when small), compressed as asked.
Handle creationList(const Shape& shape, Compression c) {
    Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    const bool none = std::find(shape.begin(), shape.end(), std::size_t(0)) != shape.end();
    if (c == Compression::None || none || shape.empty()) return dcpl;
    std::vector<hsize_t> chunk(shape.begin(), shape.end());
    if (shape.size() >= 3) chunk[0] = 1;
    H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data());
    if (c == Compression::Gzip) {
        H5Pset_shuffle(dcpl.get());
        H5Pset_deflate(dcpl.get(), gzipLevel);
    } else {
        // bitshuffle plugin: block size auto, LZ4 compression. The plugin puts its version and
        // the element size first (set_local), then these: stored (0, 3, size, 0, 2) as h5py and
        // EIGER write it. (Five values here stored compression 0: bitshuffled, not compressed.)
        const unsigned cd[] = {0, 2};
        if (H5Zfilter_avail(bitshuffleFilter) <= 0)
            throw InputError("bitshuffle HDF5 plugin not found (install Debian's bitshuffle "
                             "package or set HDF5_PLUGIN_PATH)");
        H5Pset_filter(dcpl.get(), bitshuffleFilter, H5Z_FLAG_MANDATORY, 2, cd);
    }
    return dcpl;
}

} // namespace

H5Writer::H5Writer(const std::string& fileName)
    : fileName_(fileName), tempName_(temporaryNameFor(fileName)) {
    Lock lock(h5::mutex());
    h5::silenceErrors();
    checkOutputFile("output", fileName);
    registerTemporary(tempName_);
    file_ = H5Fcreate(tempName_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file_ < 0) {
        unregisterTemporary(tempName_);
        throw InputError(fileName + ": cannot create output file: " + h5::lastError());
    }
}

H5Writer::~H5Writer() {
    Lock lock(h5::mutex());
    if (file_ >= 0) H5Fclose(file_);
    if (!committed_) {
        std::error_code ec;
        std::filesystem::remove(tempName_, ec);
        unregisterTemporary(tempName_);
    }
}

void H5Writer::write(const std::string& path, const Array& data, Compression c) {
    Lock lock(h5::mutex());
    std::vector<hsize_t> dims(data.shape().begin(), data.shape().end());
    Handle space(data.rank() == 0
                     ? H5Screate(H5S_SCALAR)
                     : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                 H5Sclose);
    Handle lcpl = intermediateGroups();
    Handle dcpl = creationList(data.shape(), c);
    const hid_t type = h5::nativeType(data.dtype());
    Handle dset(
        H5Dcreate2(file_, path.c_str(), type, space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT),
        H5Dclose);
    if (!dset.valid() || (data.size() > 0 && H5Dwrite(dset.get(), type, H5S_ALL, H5S_ALL,
                                                      H5P_DEFAULT, data.bytes()) < 0))
        throw InputError(fileName_ + ":" + path + ": cannot write dataset: " + h5::lastError());
}

std::int64_t H5Writer::createFrames(const std::string& path, DType dtype, const Shape& shape,
                                    Compression c) {
    if (shape.size() != 3) throw std::logic_error("writeFrames: (T,H,W) only");
    std::vector<hsize_t> dims(shape.begin(), shape.end());
    Handle space(H5Screate_simple(3, dims.data(), nullptr), H5Sclose);
    Handle lcpl = intermediateGroups();
    Handle dcpl = creationList(shape, c);
    Handle dset(H5Dcreate2(file_, path.c_str(), h5::nativeType(dtype), space.get(), lcpl.get(),
                           dcpl.get(), H5P_DEFAULT),
                H5Dclose);
    if (!dset.valid()) failedWrite(path);
    return dset.release(); // the caller's to close
}

void H5Writer::failedWrite(const std::string& path) const {
    throw InputError(fileName_ + ":" + path + ": cannot write dataset: " + h5::lastError());
}

void H5Writer::writeFrames(const std::string& path, DType dtype, const Shape& shape, Compression c,
                           const std::function<void(std::size_t, Array&)>& fill) {
    if (c == Compression::Gzip) return writeGzipFrames(path, dtype, shape, fill);
    Lock lock(h5::mutex());
    Handle dset(createFrames(path, dtype, shape, c), H5Dclose);
    Array frame(dtype, {shape[1], shape[2]});
    const hsize_t count[3] = {1, shape[1], shape[2]};
    Handle space(H5Dget_space(dset.get()), H5Sclose);
    Handle memory(H5Screate_simple(3, count, nullptr), H5Sclose);
    for (std::size_t t = 0; t < shape[0] && frame.size() > 0; ++t) {
        fill(t, frame);
        const hsize_t start[3] = {t, 0, 0};
        H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
        if (H5Dwrite(dset.get(), h5::nativeType(dtype), memory.get(), space.get(), H5P_DEFAULT,
                     frame.bytes()) < 0)
            failedWrite(path);
    }
}

void H5Writer::writeGzipFrames(const std::string& path, DType dtype, const Shape& shape,
                               const std::function<void(std::size_t, Array&)>& fill) {
    const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
    std::vector<Array> frames;
    std::vector<std::vector<std::byte>> chunks(threads); // as HDF5's filters store them
    for (std::size_t i = 0; i < threads; ++i)
        frames.emplace_back(dtype, Shape{shape[1], shape[2]});
    const std::size_t frameCount = frames.front().size() > 0 ? shape[0] : 0;
    Lock lock(h5::mutex());
    Handle dset(createFrames(path, dtype, shape, Compression::Gzip), H5Dclose);
    for (std::size_t first = 0; first < frameCount; first += threads) {
        const std::size_t n = std::min(threads, frameCount - first);
        {
            std::vector<std::jthread> workers;
            for (std::size_t i = 0; i < n; ++i)
                workers.emplace_back([&, i] {
                    fill(first + i, frames[i]);
                    chunks[i] = h5::shuffleDeflate(frames[i], gzipLevel);
                });
        }
        for (std::size_t i = 0; i < n; ++i) {
            const hsize_t offset[3] = {first + i, 0, 0};
            if (H5Dwrite_chunk(dset.get(), H5P_DEFAULT, 0, offset, chunks[i].size(),
                               chunks[i].data()) < 0)
                failedWrite(path);
        }
    }
}

void H5Writer::writeStoredFrames(
    const std::string& path, DType dtype, const Shape& shape, Compression c,
    const std::function<std::span<const std::byte>(std::size_t)>& chunk) {
    Lock lock(h5::mutex());
    Handle dset(createFrames(path, dtype, shape, c), H5Dclose);
    for (std::size_t t = 0; t < shape[0]; ++t) {
        const std::span<const std::byte> bytes = chunk(t);
        const hsize_t offset[3] = {t, 0, 0};
        if (H5Dwrite_chunk(dset.get(), H5P_DEFAULT, 0, offset, bytes.size(), bytes.data()) < 0)
            failedWrite(path);
    }
}

void H5Writer::writeScalar(const std::string& path, double value) {
    Array a(DType::Float64, {});
    a.as<double>()[0] = value;
    write(path, a);
}

void H5Writer::writeText(const std::string& path, const std::string& text) {
    Lock lock(h5::mutex());
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), std::max<std::size_t>(text.size(), 1));
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle lcpl = intermediateGroups();
    Handle dset(H5Dcreate2(file_, path.c_str(), type.get(), space.get(), lcpl.get(), H5P_DEFAULT,
                           H5P_DEFAULT),
                H5Dclose);
    const std::string padded = text.empty() ? std::string(1, '\0') : text;
    if (!dset.valid() ||
        H5Dwrite(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, padded.data()) < 0)
        failedWrite(path);
}

void H5Writer::writeTexts(const std::string& path, const std::vector<std::string>& texts) {
    Lock lock(h5::mutex());
    std::size_t width = 1;
    for (const std::string& t : texts)
        width = std::max(width, t.size());
    std::string packed(width * texts.size(), '\0');
    for (std::size_t i = 0; i < texts.size(); ++i)
        packed.replace(i * width, texts[i].size(), texts[i]);
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), width);
    H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
    const hsize_t dims[1] = {texts.size()};
    Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
    Handle lcpl = intermediateGroups();
    Handle dset(H5Dcreate2(file_, path.c_str(), type.get(), space.get(), lcpl.get(), H5P_DEFAULT,
                           H5P_DEFAULT),
                H5Dclose);
    if (!dset.valid() || (!texts.empty() && H5Dwrite(dset.get(), type.get(), H5S_ALL, H5S_ALL,
                                                     H5P_DEFAULT, packed.data()) < 0))
        failedWrite(path);
}

void H5Writer::createGroup(const std::string& path) {
    Lock lock(h5::mutex());
    if (H5Lexists(file_, path.c_str(), H5P_DEFAULT) > 0) return;
    Handle lcpl = intermediateGroups();
    Handle g(H5Gcreate2(file_, path.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!g.valid())
        throw InputError(fileName_ + ":" + path + ": cannot create group: " + h5::lastError());
}

void H5Writer::setAttribute(const std::string& path, const std::string& name,
                            const std::string& value) {
    Lock lock(h5::mutex());
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), std::max<std::size_t>(value.size(), 1));
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attr(H5Acreate_by_name(file_, path.c_str(), name.c_str(), type.get(), space.get(),
                                  H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                H5Aclose);
    std::string padded = value.empty() ? std::string(1, '\0') : value;
    if (!attr.valid() || H5Awrite(attr.get(), type.get(), padded.data()) < 0)
        throw InputError(fileName_ + ":" + path + ": cannot write attribute " + name);
}

void H5Writer::setAttribute(const std::string& path, const std::string& name, double value) {
    Lock lock(h5::mutex());
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attr(H5Acreate_by_name(file_, path.c_str(), name.c_str(), H5T_NATIVE_DOUBLE, space.get(),
                                  H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                H5Aclose);
    if (!attr.valid() || H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, &value) < 0)
        throw InputError(fileName_ + ":" + path + ": cannot write attribute " + name);
}

void H5Writer::setIntegerAttribute(const std::string& path, const std::string& name,
                                   std::int64_t value) {
    Lock lock(h5::mutex());
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attr(H5Acreate_by_name(file_, path.c_str(), name.c_str(), H5T_NATIVE_INT64, space.get(),
                                  H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                H5Aclose);
    if (!attr.valid() || H5Awrite(attr.get(), H5T_NATIVE_INT64, &value) < 0)
        throw InputError(fileName_ + ":" + path + ": cannot write attribute " + name);
}

void H5Writer::setIntegerArrayAttribute(const std::string& path, const std::string& name,
                                        const std::vector<std::int64_t>& values) {
    Lock lock(h5::mutex());
    const hsize_t n = values.size();
    Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    Handle attr(H5Acreate_by_name(file_, path.c_str(), name.c_str(), H5T_NATIVE_INT64, space.get(),
                                  H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                H5Aclose);
    if (!attr.valid() || H5Awrite(attr.get(), H5T_NATIVE_INT64, values.data()) < 0)
        throw InputError(fileName_ + ":" + path + ": cannot write attribute " + name);
}

void H5Writer::copyFrom(const H5Reader& source, const std::string& path) {
    Lock lock(h5::mutex());
    Handle lcpl = intermediateGroups();
    if (H5Ocopy(source.file_, path.c_str(), file_, path.c_str(), H5P_DEFAULT, lcpl.get()) < 0)
        throw InputError(fileName_ + ":" + path + ": cannot copy " + source.where(path) + ": " +
                         h5::lastError());
}

void H5Writer::linkExternal(const std::string& path, const std::string& file,
                            const std::string& target) {
    Lock lock(h5::mutex());
    Handle lcpl = intermediateGroups();
    if (H5Lcreate_external(file.c_str(), target.c_str(), file_, path.c_str(), lcpl.get(),
                           H5P_DEFAULT) < 0)
        throw InputError(fileName_ + ":" + path + ": cannot create external link");
}

void H5Writer::linkSoft(const std::string& path, const std::string& target) {
    Lock lock(h5::mutex());
    Handle lcpl = intermediateGroups();
    if (H5Lcreate_soft(target.c_str(), file_, path.c_str(), lcpl.get(), H5P_DEFAULT) < 0)
        throw InputError(fileName_ + ":" + path + ": cannot create soft link");
}

void H5Writer::finish() {
    Lock lock(h5::mutex());
    if (file_ < 0) return;
    const herr_t closed = H5Fclose(file_);
    file_ = -1;
    if (closed < 0) throw InputError(fileName_ + ": cannot finish writing: " + h5::lastError());
}

void H5Writer::commit() {
    Lock lock(h5::mutex());
    if (committed_) return;
    finish();
    std::error_code ec;
    std::filesystem::rename(tempName_, fileName_, ec);
    if (ec) throw InputError(fileName_ + ": cannot move output into place: " + ec.message());
    committed_ = true;
    unregisterTemporary(tempName_);
}

void skipHdf5CleanupAtExit() {
    H5dont_atexit();
}

void writeProvenance(H5Writer& out, const std::string& group, const Provenance& p) {
    out.createGroup(group);
    out.setAttribute(group, "device", p.device);
    out.setAttribute(group, "variant", p.variant);
    out.setAttribute(group, "parameters", p.parametersJson);
    out.setAttribute(group, "kernel_ms", p.kernelMs);
    out.setAttribute(group, "clscope_version", clscopeVersion());
}

} // namespace clscope
