// Byte ranges of a file read on several threads at once (pread), as fast readers of detector
// files read chunks whose places libhdf5 gave: libhdf5's one lock would read them one after
// another on one thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace clscope {

struct FileRange {
    std::uint64_t offset = 0; // in the file
    std::size_t bytes = 0;
    std::byte* to = nullptr;
    // Or, where `to` is null, this vector, sized to `bytes` on the reading thread (so the
    // threads share the zeroing of fresh memory too).
    std::vector<std::byte>* into = nullptr;
};

// A file open for reading (O_RDONLY), closed with the object.
class ReadOnlyFile {
  public:
    // InputError naming `name` when it cannot be opened.
    explicit ReadOnlyFile(const std::string& name);
    ~ReadOnlyFile();
    ReadOnlyFile(const ReadOnlyFile&) = delete;
    ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;

    // Every range read in full, on up to `threads` threads; InputError naming the file and the
    // range when a read fails or the file ends first.
    void read(std::span<const FileRange> ranges, std::size_t threads = 8) const;
    const std::string& name() const { return name_; }

  private:
    std::string name_;
    int fd_ = -1;
};

} // namespace clscope
