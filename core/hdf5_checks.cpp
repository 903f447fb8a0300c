// Storage checks before an HDF5 read: filters available, chunk sizes and counts plausible,
// data inside the file, virtual sources present, so that a damaged file is refused with a
// clear message instead of being read as garbage.
#include "core/errors.hpp"
#include "core/hdf5_util.hpp"
#include "core/limits.hpp"
#include "core/stream/block_plan.hpp"

#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace clscope::h5 {

namespace {

// Every filter of a chunked dataset must be available, or HDF5 cannot decode the chunks.
void checkFilters(hid_t dcpl, const std::string& where) {
    const int n = H5Pget_nfilters(dcpl);
    for (int i = 0; i < n; ++i) {
        unsigned flags = 0, config = 0;
        std::size_t cdCount = 0;
        char name[256] = "";
        const H5Z_filter_t id = H5Pget_filter2(dcpl, static_cast<unsigned>(i), &flags, &cdCount,
                                               nullptr, sizeof name, name, &config);
        if (id < 0 || H5Zfilter_avail(id) <= 0)
            throw InputError(where + ": compression filter " + std::to_string(id) + " (" + name +
                             ") is not available (missing HDF5 plugin, or a corrupt "
                             "filter pipeline)");
    }
}

// A compressed chunk of more than inflationFloor bytes may inflate at most maxInflation times
// (deflate's own limit is 1032, LZ4's 255): a few KB may not claim a GiB of memory.
constexpr std::uint64_t inflationFloor = std::uint64_t(256) << 20, maxInflation = 4096;

// The file holding a bitshuffle-LZ4 dataset, open to read its chunks' headers (fd -1 for other
// filters, and where the file cannot be read again, e.g. a file image).
struct Bslz4File {
    int fd = -1;
    std::uint64_t base = 0; // its user block: chunk addresses start after it
    Bslz4File(hid_t dset, hid_t dcpl) {
        if (!bitshuffleLz4Only(dcpl)) return;
        if (const std::optional<Holder> holder = holderOf(dset))
            fd = ::open(holder->file.c_str(), O_RDONLY | O_CLOEXEC), base = holder->base;
    }
    ~Bslz4File() {
        if (fd >= 0) ::close(fd);
    }
    Bslz4File(const Bslz4File&) = delete;
    Bslz4File& operator=(const Bslz4File&) = delete;
    // The header of the chunk at `address` checked as the decoders check it (a header that
    // cannot be read is left to the read, which says so).
    void check(haddr_t address, std::size_t element, std::uint64_t chunkBytes,
               const std::string& where) const {
        std::byte header[12];
        if (fd < 0 || ::pread(fd, header, sizeof header, off_t(base + address)) != 12) return;
        try {
            stream::checkBslz4Header(element, header, chunkBytes);
        } catch (const InputError& e) {
            throw InputError(where + ": " + e.what());
        }
    }
};

// Chunks of a chunked dataset: all of them stored, inside the file and, without filters,
// exactly one raw chunk each (a compressed chunk taken as raw would overflow the reader).
void checkChunks(hid_t dset, hid_t dcpl, const std::string& where, const Shape& shape,
                 std::size_t storedElement, std::uint64_t fileBytes, bool whole) {
    checkFilters(dcpl, where);
    const bool filtered = H5Pget_nfilters(dcpl) > 0;
    std::vector<hsize_t> chunk(shape.size());
    if (H5Pget_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()) !=
        static_cast<int>(shape.size()))
        throw InputError(where + ": corrupt chunk layout");
    std::uint64_t expected = 1, chunkBytes = storedElement;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (chunk[d] == 0) throw InputError(where + ": corrupt chunk layout (size 0)");
        expected *= (shape[d] + chunk[d] - 1) / chunk[d];
        if (__builtin_mul_overflow(chunkBytes, chunk[d], &chunkBytes))
            throw InputError(where + ": corrupt chunk layout (chunk size overflows)");
    }
    checkChunkFits(Shape(chunk.begin(), chunk.end()), storedElement, where);
    hsize_t stored = 0;
    Handle space(H5Dget_space(dset), H5Sclose);
    if (H5Dget_num_chunks(dset, space.get(), &stored) < 0)
        throw InputError(where + ": cannot read the chunk index: " + h5::lastError());
    // A slab read needs only the chunks it reads, but a dataset that stores none at all would
    // be read as fill values, however large it declares itself (terabytes of zeros).
    if (whole ? stored != expected : stored > expected || (stored == 0 && expected > 0))
        throw InputError(where + ": the file stores " + std::to_string(stored) + " of the " +
                         std::to_string(expected) + " chunks of shape " + shapeString(shape) +
                         " (partly written or corrupt file)");
    const hsize_t checked = std::min<hsize_t>(stored, 1024);
    std::vector<hsize_t> offset(shape.size());
    const Bslz4File bslz4(dset, dcpl);
    for (hsize_t i = 0; i < checked; ++i) {
        unsigned mask = 0;
        haddr_t address = 0;
        hsize_t size = 0;
        if (H5Dget_chunk_info(dset, space.get(), i, offset.data(), &mask, &address, &size) < 0)
            throw InputError(where + ": cannot read chunk " + std::to_string(i) + ": " +
                             h5::lastError());
        if (!filtered && size != chunkBytes)
            throw InputError(where + ": chunk " + std::to_string(i) + " stores " +
                             std::to_string(size) + " bytes, expected " +
                             std::to_string(chunkBytes) +
                             " for unfiltered data (corrupt filter pipeline?)");
        if (filtered && chunkBytes > inflationFloor && size < chunkBytes / maxInflation)
            throw InputError(where + ": chunk " + std::to_string(i) + " stores " +
                             std::to_string(size) + " bytes that inflate to " +
                             std::to_string(chunkBytes) + " (more than " +
                             std::to_string(maxInflation) + " times: corrupt or hostile file)");
        if (address == HADDR_UNDEF || address + size > fileBytes)
            throw InputError(where + ": chunk " + std::to_string(i) +
                             " lies past the end of the file (truncated file?)");
        if (!(mask & 1u)) // the filter applied
            bslz4.check(address, storedElement, chunkBytes,
                        where + (shape.size() == 3 ? ": frame " + std::to_string(offset[0])
                                                   : ": chunk " + std::to_string(i)));
    }
}

// Contiguous (or compact) data: all declared bytes stored, and inside the file.
void checkContiguous(hid_t dset, const std::string& where, const Shape& shape,
                     std::uint64_t declared, std::uint64_t fileBytes) {
    const std::uint64_t stored = H5Dget_storage_size(dset);
    if (stored < declared)
        throw InputError(where + ": shape " + shapeString(shape) + " needs " +
                         std::to_string(declared) + " bytes, the file stores " +
                         std::to_string(stored) + " (truncated or corrupt file)");
    if (fileBytes == UINT64_MAX) return;
    const haddr_t offset = H5Dget_offset(dset);
    if (offset == HADDR_UNDEF || offset + stored > fileBytes)
        throw InputError(where + ": the data lies past the end of the file (truncated file?)");
}

// Sources of a virtual dataset must exist (HDF5 reads missing ones as fill values).
void checkVirtualSources(hid_t dcpl, const std::string& where, const std::string& fileName) {
    std::size_t count = 0;
    if (H5Pget_virtual_count(dcpl, &count) < 0) return;
    const auto dir = std::filesystem::path(fileName).parent_path();
    for (std::size_t i = 0; i < count; ++i) {
        const ssize_t length = H5Pget_virtual_filename(dcpl, i, nullptr, 0);
        if (length <= 0) continue;
        std::string source(static_cast<std::size_t>(length) + 1, '\0');
        H5Pget_virtual_filename(dcpl, i, source.data(), source.size());
        source.resize(static_cast<std::size_t>(length));
        if (source == ".") continue;
        std::error_code ec;
        const std::filesystem::path found =
            std::filesystem::exists(source, ec) ? std::filesystem::path(source) : dir / source;
        if (!std::filesystem::exists(found, ec))
            throw InputError(where + ": source file " + source +
                             " of the virtual dataset is missing");
        // HDF5 reads a source it cannot open as fill values (and a FIFO would block it).
        if (!std::filesystem::is_regular_file(found, ec))
            throw InputError(where + ": source file " + source +
                             " of the virtual dataset is not a regular file");
        if (H5Fis_hdf5(found.c_str()) <= 0)
            throw InputError(where + ": source file " + source +
                             " of the virtual dataset is not an HDF5 file");
    }
}

// Refuse what HDF5 would read wrongly: storage that does not hold the declared data. A
// whole read needs every chunk stored; a slab read (frames of a file still being written)
// only consistent chunks.

} // namespace

void checkChunkFits(const Shape& chunk, std::size_t elementBytes, const std::string& where) {
    const std::string what = where + ": a chunk of " + shapeString(chunk);
    const std::optional<std::uint64_t> bytes = checkedBytes(chunk, elementBytes);
    if (!bytes) throw InputError(what + ": its size overflows");
    checkHostMemory(*bytes, what);
}

void checkStorage(hid_t dset, const std::string& where, const std::string& fileName,
                  std::uint64_t fileBytes, const Shape& shape, bool whole) {
    Handle type(H5Dget_type(dset), H5Tclose);
    const std::size_t element = H5Tget_size(type.get());
    const auto declared = checkedBytes(shape, element);
    if (!declared) throw InputError(where + ": shape " + shapeString(shape) + " overflows 64 bits");
    if (*declared == 0) return;
    Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
    switch (H5Pget_layout(dcpl.get())) {
    case H5D_CHUNKED:
        return checkChunks(dset, dcpl.get(), where, shape, element, fileBytes, whole);
    case H5D_VIRTUAL:
        return checkVirtualSources(dcpl.get(), where, fileName);
    case H5D_COMPACT: // in the object header: no address, but as many bytes as declared
        return checkContiguous(dset, where, shape, *declared, UINT64_MAX);
    case H5D_CONTIGUOUS:
        return checkContiguous(dset, where, shape, *declared, fileBytes);
    default:
        return;
    }
}

} // namespace clscope::h5
