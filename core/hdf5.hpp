// Thin RAII layer over the HDF5 C API: a reader that names file and dataset in every
// error, and a writer that writes to a temporary file and renames it when committed.
#pragma once
#include "core/array.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace clscope {

// What a dataset holds, as the browser and the role readers need it.
struct DatasetInfo {
    Shape shape;
    std::optional<DType> dtype; // empty when clscope cannot hold the stored type
    std::string typeName;       // e.g. "uint16", "int8", "string", "compound"
    bool integer = false;       // any stored integer type (readable converted, e.g. as int64)
};

// One node of a file's tree.
struct H5Node {
    std::string path; // absolute, e.g. /entry/data/data
    std::string name;
    enum Kind { Group, Dataset, Other, Broken } kind = Other;
    DatasetInfo info;                              // datasets only
    std::map<std::string, std::string> attributes; // values rendered as text
    std::string note;                              // e.g. "external link to FILE:/path"
};

// A read-only HDF5 file (opened without file locking, as silx view does).
class H5Reader {
  public:
    explicit H5Reader(const std::string& fileName);
    // Where a file image came from: from outside (probed first, as a file is) or written by
    // clscope's own H5Writer in this process (nothing to contain: no fork for it).
    enum class Image { Outside, WrittenHere };
    // A file image in memory (copied), read through HDF5's core driver; name labels the
    // errors. Used by the fuzz target (tests/fuzz) and for data that is not on disk.
    H5Reader(const std::string& name, const void* image, std::size_t size,
             Image origin = Image::Outside);
    ~H5Reader();
    H5Reader(const H5Reader&) = delete;
    H5Reader& operator=(const H5Reader&) = delete;

    const std::string& fileName() const { return fileName_; }
    bool hasDataset(const std::string& path) const;
    bool hasObject(const std::string& path) const;
    DatasetInfo info(const std::string& path) const;
    // Read a whole dataset converted by HDF5 to memType (or its own type when empty).
    Array read(const std::string& path, std::optional<DType> memType = {}) const;
    // Read frames [first, first+count) along axis 0 in the stored type (or converted by HDF5 to
    // memType, e.g. a sparse layout's integer columns as int64 whatever their stored width).
    Array readSlab(const std::string& path, std::size_t first, std::size_t count,
                   std::optional<DType> memType = {}) const;
    // The storage checks of a slab read (InputError naming file and dataset), for readers
    // that allocate their buffers before the first readSlab.
    void checkStored(const std::string& path) const;
    double readScalar(const std::string& path) const;
    std::optional<std::string> stringAttribute(const std::string& path,
                                               const std::string& name) const;
    // An integer attribute's values (e.g. a sparse layout's `shape`); empty when absent,
    // InputError naming it when it holds no integers or more than 64 of them.
    std::optional<std::vector<std::int64_t>> integerAttribute(const std::string& path,
                                                              const std::string& name) const;
    // The children of a group (datasets with shape and type, attributes).
    std::vector<H5Node> children(const std::string& group) const;
    // "FILE:/path" for error messages.
    std::string where(const std::string& path) const { return fileName_ + ":" + path; }

  private:
    friend class H5Writer; // copyFrom copies objects out of this file
    std::int64_t openDataset(const std::string& path) const;
    // Storage consistent with the declared shape, and the memory to hold it free (InputError).
    // stored: the dataset's shape; shape: what is read of it.
    void checkReadable(std::int64_t dset, const std::string& path, const Shape& stored,
                       const Shape& shape, DType memType) const;
    void checkStorageOnce(std::int64_t dset, const std::string& path, const Shape& stored,
                          bool whole) const;
    std::uint64_t bytesOfFileHolding(std::int64_t dset) const;
    mutable std::set<std::string> checked_; // datasets whose storage was found consistent
    std::string fileName_;
    std::uint64_t fileBytes_ = 0; // the file's (or image's) size: no data may lie past it
    std::int64_t file_ = -1;
};

enum class Compression { None, Gzip, Bitshuffle };

// Writes a new HDF5 file under a temporary name; commit() renames it into place. The name is
// checked first (checkOutputFile: never a folder, FIFO, device or symbolic link).
// Destroyed without commit(), it removes the temporary file: never a half-written output.
class H5Writer {
  public:
    explicit H5Writer(const std::string& fileName);
    ~H5Writer();
    H5Writer(const H5Writer&) = delete;
    H5Writer& operator=(const H5Writer&) = delete;

    void write(const std::string& path, const Array& data, Compression c = Compression::None);
    // A (T,H,W) dataset written one frame at a time (chunks and compression as write() gives
    // them): fill(t, frame) fills frame t's H*W elements, so the whole never lies in memory.
    // Gzip frames are filled and compressed on several threads at once (each call its own t
    // and array), the chunks written as HDF5's shuffle and deflate filters store them.
    void writeFrames(const std::string& path, DType dtype, const Shape& shape, Compression c,
                     const std::function<void(std::size_t, Array&)>& fill);
    // The same dataset, its frames given as stored (one chunk each, already compressed by
    // c's filter: chunk(t) is frame t's chunk), written as they are (H5Dwrite_chunk), as a
    // detector's file writer does.
    void writeStoredFrames(const std::string& path, DType dtype, const Shape& shape, Compression c,
                           const std::function<std::span<const std::byte>(std::size_t)>& chunk);
    void writeScalar(const std::string& path, double value);
    // Text: a scalar string dataset (UTF-8, fixed length), and a 1-d array of fixed-length
    // byte strings as h5py reads as numpy bytes (S dtype), e.g. a list of names.
    void writeText(const std::string& path, const std::string& text);
    void writeTexts(const std::string& path, const std::vector<std::string>& texts);
    // An integer attribute (int64), where a format asks for NX_INT.
    void setIntegerAttribute(const std::string& path, const std::string& name, std::int64_t value);
    // An int64 array attribute, e.g. a sparse layout's `shape` = (T, H, W).
    void setIntegerArrayAttribute(const std::string& path, const std::string& name,
                                  const std::vector<std::int64_t>& values);
    // The object at `path` of `source` (a dataset or a group, with its attributes and what it
    // holds) copied to the same path here, parent groups made as needed.
    void copyFrom(const H5Reader& source, const std::string& path);
    void setAttribute(const std::string& path, const std::string& name, const std::string& v);
    void setAttribute(const std::string& path, const std::string& name, double value);
    void createGroup(const std::string& path);
    // Soft or external link, e.g. EIGER's data_000001 -> data file.
    void linkExternal(const std::string& path, const std::string& file, const std::string& target);
    void linkSoft(const std::string& path, const std::string& target);
    // Closes the file (every byte written; InputError in one line, e.g. a full disk) without
    // renaming it yet; commit() does both.
    void finish();
    void commit();

  private:
    // A new (T,H,W) dataset of one frame a chunk (HDF5 lock held): its open id.
    std::int64_t createFrames(const std::string& path, DType dtype, const Shape& shape,
                              Compression c);
    void writeGzipFrames(const std::string& path, DType dtype, const Shape& shape,
                         const std::function<void(std::size_t, Array&)>& fill);
    [[noreturn]] void failedWrite(const std::string& path) const;
    std::string fileName_, tempName_;
    std::int64_t file_ = -1;
    bool committed_ = false;
};

// Provenance attributes written on every output group (DESIGN.md §3).
struct Provenance {
    std::string device, variant, parametersJson = "{}";
    double kernelMs = 0.0;
};
void writeProvenance(H5Writer& out, const std::string& group, const Provenance& p);

std::string clscopeVersion();

// At process start, before any HDF5 call: no libhdf5 shutdown at exit (H5dont_atexit). A file
// whose close failed (a full disk) stays open in libhdf5 and its shutdown crashes on it
// (SIGSEGV in H5F__close_cb); clscope closes every file it opens itself.
void skipHdf5CleanupAtExit();

} // namespace clscope
