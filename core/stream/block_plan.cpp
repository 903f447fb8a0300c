#include "core/stream/block_plan.hpp"

#include "core/errors.hpp"

namespace clscope::stream {
namespace {

// Big-endian integers and blocks of the HDF5 filters' framing, read with bounds checks.
class Reader {
  public:
    Reader(std::span<const std::byte> src, std::string what) : src_(src), what_(std::move(what)) {}
    std::uint64_t be(std::size_t bytes) {
        const std::size_t at = take(bytes, "a header");
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < bytes; ++i)
            v = (v << 8) | std::to_integer<std::uint64_t>(src_[at + i]);
        return v;
    }
    // The offset of the next `bytes` bytes, which are passed over.
    std::size_t take(std::size_t bytes, const char* what) {
        if (bytes > src_.size() - pos_)
            throw InputError(what_ + " data truncated: " + what + " of " + std::to_string(bytes) +
                             " bytes at byte " + std::to_string(pos_) + " of " +
                             std::to_string(src_.size()));
        const std::size_t at = pos_;
        pos_ += bytes;
        return at;
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

// The header: the total (which must be `wanted`) and the block size.
std::uint64_t header(Reader& in, std::size_t wanted) {
    const std::uint64_t total = in.be(8);
    if (total != wanted)
        throw InputError(in.what() + " data holds " + std::to_string(total) + " bytes, expected " +
                         std::to_string(wanted));
    return in.be(4);
}

// One LZ4 block (its size, then its bytes) decoding to `bytes` at `dst`.
void lz4Block(Reader& in, FramePlan& plan, std::uint64_t dst, std::size_t bytes, BlockKind kind) {
    const std::uint32_t size = std::uint32_t(in.be(4));
    const std::size_t at = in.take(size, "an LZ4 block");
    if (kind == BlockKind::Lz4 && size == bytes) kind = BlockKind::Stored;
    plan.blocks.push_back({at, dst, size, std::uint32_t(bytes), kind});
}

// The bslz4 header: the total (which must be `dstBytes`) and a block size of whole groups of 8
// elements.
std::uint64_t bslz4Header(Reader& in, std::uint64_t elemSize, std::size_t dstBytes) {
    const std::uint64_t blockBytes = header(in, dstBytes);
    if (elemSize == 0 || elemSize > 8 || dstBytes % elemSize || blockBytes == 0 ||
        blockBytes % (8 * elemSize) || blockBytes > (1u << 30))
        throw InputError("bslz4 data: block size " + std::to_string(blockBytes) +
                         " or element size " + std::to_string(elemSize) + " invalid for " +
                         std::to_string(dstBytes) + " bytes");
    return blockBytes;
}

FramePlan bslz4(std::uint64_t elemSize, std::span<const std::byte> src, std::size_t dstBytes) {
    Reader in(src, "bslz4");
    FramePlan plan;
    const std::uint64_t blockBytes = bslz4Header(in, elemSize, dstBytes);
    plan.elemSize = std::uint32_t(elemSize), plan.blockBytes = std::uint32_t(blockBytes);
    const std::size_t count = dstBytes / elemSize, blockCount = blockBytes / elemSize;
    std::size_t done = 0; // elements
    auto one = [&](std::size_t n) {
        lz4Block(in, plan, done * elemSize, n * elemSize, BlockKind::Bitshuffled);
        done += n;
    };
    for (std::size_t b = 0; b < count / blockCount; ++b)
        one(blockCount);
    if (const std::size_t last = (count % blockCount) / 8 * 8) one(last);
    const std::size_t leftover = (count - done) * elemSize; // < 8 elements, stored as they are
    const std::size_t at = in.take(leftover, "the last elements");
    if (leftover)
        plan.blocks.push_back({at, done * elemSize, std::uint32_t(leftover),
                               std::uint32_t(leftover), BlockKind::Stored});
    in.finish();
    return plan;
}

FramePlan lz4(std::span<const std::byte> src, std::size_t dstBytes) {
    Reader in(src, "lz4");
    FramePlan plan;
    const std::uint64_t blockBytes = header(in, dstBytes);
    if ((blockBytes == 0 && dstBytes) || blockBytes > (1u << 30))
        throw InputError("lz4 data: block size " + std::to_string(blockBytes) + " invalid");
    plan.blockBytes = std::uint32_t(blockBytes);
    for (std::size_t done = 0; done < dstBytes;) {
        const std::size_t n = std::min<std::size_t>(blockBytes, dstBytes - done);
        lz4Block(in, plan, done, n, BlockKind::Lz4);
        done += n;
    }
    in.finish();
    return plan;
}

} // namespace

void checkBslz4Header(std::uint64_t elemSize, std::span<const std::byte> src,
                      std::size_t dstBytes) {
    Reader in(src, "bslz4");
    bslz4Header(in, elemSize, dstBytes);
}

FramePlan planBlocks(const std::string& algorithm, std::uint64_t elemSize,
                     std::span<const std::byte> src, std::size_t dstBytes) {
    if (algorithm == "bslz4") return bslz4(elemSize, src, dstBytes);
    if (algorithm == "lz4") return lz4(src, dstBytes);
    throw InputError("unknown compression '" + algorithm + "' (expected bslz4 or lz4)");
}

} // namespace clscope::stream
