// Internal helpers of the HDF5 layer (not installed, not used outside core/hdf5_*.cpp).
#pragma once
#include "core/array.hpp"

#include <hdf5.h>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clscope::h5 {

// HDF5 (Debian's serial build) is not thread-safe: every call goes through this lock.
std::recursive_mutex& mutex();
// In a forked child only: a fresh mutex (the parent's stays locked by a thread the child lacks).
void replaceMutexInChild();

// Silence HDF5's own error printing for the calling thread (mutex() does it for every thread
// that takes the lock); we report errors ourselves. CLSCOPE_HDF5_ERRORS=1 keeps libhdf5's.
void silenceErrors();

// The innermost message on HDF5's error stack, or "" when empty.
std::string lastError();

// Owns one hid_t and closes it with the matching H5*close function.
class Handle {
  public:
    Handle() = default;
    Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    ~Handle() { reset(); }
    Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = o.id_, close_ = o.close_, o.id_ = -1;
        }
        return *this;
    }
    hid_t get() const { return id_; }
    bool valid() const { return id_ >= 0; }
    // The id, no longer closed by this handle.
    hid_t release() { return std::exchange(id_, -1); }
    void reset() {
        if (id_ >= 0 && close_) close_(id_);
        id_ = -1;
    }

  private:
    hid_t id_ = -1;
    herr_t (*close_)(hid_t) = nullptr;
};

// The access list every reader opens a file with: no file locking, so files a detector is still
// writing open, and the readers of one process share an open file.
Handle readAccessList();

// A dataset opened read-only (readAccessList) with its file, or none where the file or the path
// is not there. The caller holds the lock.
struct OpenDataset {
    Handle file, dataset;
};
std::optional<OpenDataset> openDataset(const std::string& fileName, const std::string& path);

// The file that holds an open object (an external link's target), where its HDF5 addresses
// start in it (the user block's bytes) and its size; none when libhdf5 or the file system
// cannot say.
struct Holder {
    std::string file;
    std::uint64_t base = 0, bytes = 0;
};
std::optional<Holder> holderOf(hid_t object);

// A (T,H,W) dataset of the native type stored in chunks of whole frames (chunkFrames of them a
// chunk), T > 0: its shape and type, or none (whatever its filters).
struct FrameChunks {
    std::size_t frames = 0, height = 0, width = 0, chunkFrames = 0;
    DType dtype = DType::UInt8;
};
std::optional<FrameChunks> frameChunks(hid_t dataset);

// Where the chunk at `offset` of an open dataset lies in its holder: its first byte there, its
// size and filter mask (bit i: filter i skipped); none when it is unwritten or reaches past the
// holder's end. The caller holds the lock.
struct ChunkPlace {
    std::uint64_t at = 0, bytes = 0;
    unsigned filterMask = 0;
};
std::optional<ChunkPlace> chunkPlace(hid_t dataset, const hsize_t* offset, const Holder& holder);

// Where a dataset's elements lie in a file exactly as held in memory (contiguous, no filter or
// external storage, allocated, its stored type the native one): its file and the byte offset
// of element 0 there; none otherwise (libhdf5 reads it). Opens the file itself (lock held).
struct RawPlace {
    std::string file;
    std::uint64_t offset = 0, bytes = 0;
};
std::optional<RawPlace> rawPlace(const std::string& fileName, const std::string& path);

// HDF5 native memory type of a clscope dtype.
hid_t nativeType(DType dtype);

// HDF5's registered id of the bitshuffle filter (bitshuffle's bshuf_h5filter.h).
constexpr H5Z_filter_t bitshuffleFilter = 32008;
// Whether a dataset creation list's filters are bitshuffle with LZ4 alone (its 5th value 2:
// DECTRIS' bslz4, the EIGER / NXmx layout) and this build can decode it (liblz4).
bool bitshuffleLz4Only(hid_t dcpl);
// The chunk HDF5's shuffle then deflate filters store for `frame` (H5Pset_shuffle,
// H5Pset_deflate(level)): its bytes regrouped by byte of element, then zlib-compressed.
std::vector<std::byte> shuffleDeflate(const Array& frame, int level);
// The clscope dtype of a stored type, or empty; name describes it either way.
std::optional<DType> dtypeOfStored(hid_t type, std::string& name);

// Refuse a dataset whose storage cannot be read as declared (core/hdf5_checks.cpp): missing
// filters, chunk sizes or counts that do not fit, data outside the file, missing virtual
// sources. InputError naming `where`. `whole`: the whole dataset will be read. fileBytes: the
// size of the file (or file image) the dataset is in.
void checkStorage(hid_t dset, const std::string& where, const std::string& fileName,
                  std::uint64_t fileBytes, const Shape& shape, bool whole);

// One chunk of `chunk` elements of elementBytes each must fit the free host memory: a reader
// holds a whole chunk to read any part of it (libhdf5, ChunkedFrames). InputError "WHERE: a
// chunk of (D0, D1, ...): needs ..." otherwise, or when its size overflows.
void checkChunkFits(const Shape& chunk, std::size_t elementBytes, const std::string& where);

// Contain libhdf5 (core/hdf5_probe.cpp): before the first open of a file (by name, once per
// file identity and modification time) or of a file image, a forked child walks it as the
// readers do; a crash or hang of libhdf5 there is an InputError "FILE: the HDF5 library
// crashed (hung) reading it ...". CLSCOPE_PROBE=0 turns it off, CLSCOPE_PROBE_SECONDS sets
// the time limit (60 s).
void probeFile(const std::string& fileName);
void probeImage(const std::string& name, const void* image, std::size_t size);

} // namespace clscope::h5
