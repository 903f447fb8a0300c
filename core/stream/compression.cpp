#include "core/stream/compression.hpp"

#include "core/errors.hpp"

#include <lz4.h>

#include <cstring>
#include <vector>

namespace clscope::stream {
namespace {

// Big-endian integers of the HDF5 filters' framing, read with bounds checks.
class Reader {
  public:
    Reader(std::span<const std::byte> src, std::string what) : src_(src), what_(std::move(what)) {}
    std::uint64_t be(std::size_t bytes) {
        const std::byte* p = take(bytes, "a header");
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < bytes; ++i)
            v = (v << 8) | std::to_integer<std::uint64_t>(p[i]);
        return v;
    }
    const std::byte* take(std::size_t bytes, const char* what) {
        if (bytes > src_.size() - pos_)
            throw InputError(what_ + " data truncated: " + what + " of " + std::to_string(bytes) +
                             " bytes at byte " + std::to_string(pos_) + " of " +
                             std::to_string(src_.size()));
        const std::byte* p = src_.data() + pos_;
        pos_ += bytes;
        return p;
    }
    void finish() const {
        if (pos_ != src_.size())
            throw InputError(what_ + " data: " + std::to_string(src_.size() - pos_) +
                             " bytes after the last block");
    }
    const std::string& what() const { return what_; }

  private:
    std::span<const std::byte> src_;
    std::size_t pos_ = 0;
    std::string what_;
};

// One LZ4 block (its size, then its bytes) that must give exactly out.size() bytes. With
// `storedWhenFull` (the HDF5 LZ4 filter), a block of out.size() bytes is stored as it is.
void lz4Block(Reader& in, std::span<std::byte> out, bool storedWhenFull = false) {
    const std::size_t size = in.be(4);
    const char* src = reinterpret_cast<const char*>(in.take(size, "an LZ4 block"));
    if (storedWhenFull && size == out.size()) {
        std::memcpy(out.data(), src, size);
        return;
    }
    const int got =
        LZ4_decompress_safe(src, reinterpret_cast<char*>(out.data()), int(size), int(out.size()));
    if (got != int(out.size()))
        throw InputError(in.what() + " data: a corrupt LZ4 block (" + std::to_string(size) +
                         " bytes gave " + std::to_string(got) + ", expected " +
                         std::to_string(out.size()) + ")");
}

void checkTotal(Reader& in, std::size_t wanted) {
    const std::uint64_t total = in.be(8);
    if (total != wanted)
        throw InputError(in.what() + " data holds " + std::to_string(total) + " bytes, expected " +
                         std::to_string(wanted));
}

void bslz4(std::uint64_t elemSize, std::span<const std::byte> src, std::span<std::byte> dst) {
    Reader in(src, "bslz4");
    checkTotal(in, dst.size());
    const std::uint64_t blockBytes = in.be(4);
    if (elemSize == 0 || elemSize > 8 || dst.size() % elemSize || blockBytes == 0 ||
        blockBytes % (8 * elemSize))
        throw InputError("bslz4 data: block size " + std::to_string(blockBytes) +
                         " or element size " + std::to_string(elemSize) + " invalid for " +
                         std::to_string(dst.size()) + " bytes");
    const std::size_t count = dst.size() / elemSize, blockCount = blockBytes / elemSize;
    std::vector<std::byte> block(blockBytes);
    std::size_t done = 0;
    auto one = [&](std::size_t n) {
        lz4Block(in, {block.data(), n * elemSize});
        bitUnshuffle(block.data(), dst.data() + done * elemSize, n, elemSize);
        done += n;
    };
    for (std::size_t b = 0; b < count / blockCount; ++b)
        one(blockCount);
    if (const std::size_t last = (count % blockCount) / 8 * 8) one(last);
    const std::size_t leftover = (count - done) * elemSize; // < 8 elements, stored as they are
    std::memcpy(dst.data() + done * elemSize, in.take(leftover, "the last elements"), leftover);
    in.finish();
}

void lz4(std::span<const std::byte> src, std::span<std::byte> dst) {
    Reader in(src, "lz4");
    checkTotal(in, dst.size());
    const std::uint64_t blockBytes = in.be(4);
    if (blockBytes == 0 && !dst.empty()) throw InputError("lz4 data: block size 0");
    for (std::size_t done = 0; done < dst.size();) {
        const std::size_t n = std::min<std::size_t>(blockBytes, dst.size() - done);
        lz4Block(in, dst.subspan(done, n), true);
        done += n;
    }
    in.finish();
}

} // namespace

void decompress(const std::string& algorithm, std::uint64_t elemSize,
                std::span<const std::byte> src, std::span<std::byte> dst) {
    if (algorithm == "bslz4") return bslz4(elemSize, src, dst);
    if (algorithm == "lz4") return lz4(src, dst);
    throw InputError("unknown compression '" + algorithm + "' (expected bslz4 or lz4)");
}

} // namespace clscope::stream
