#include "core/stream/series_encoder.hpp"

#include "core/stream/compression.hpp"

#include <lz4.h>

#include <algorithm>
#include <string>

namespace clscope::stream {
namespace {

void bigEndian(Bytes& out, std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(std::byte(v >> (8 * i)));
}

// CBOR: a head (major type, argument), then text, byte strings and small structures.
class Cbor {
  public:
    Cbor& head(int major, std::uint64_t v) {
        const auto m = std::byte(major << 5);
        if (v < 24) {
            out.push_back(m | std::byte(v));
        } else {
            const int bytes = v < 0x100 ? 1 : v < 0x10000 ? 2 : v < 0x100000000ULL ? 4 : 8;
            out.push_back(m | std::byte(bytes == 1 ? 24 : bytes == 2 ? 25 : bytes == 4 ? 26 : 27));
            bigEndian(out, v, bytes);
        }
        return *this;
    }
    Cbor& uint(std::uint64_t v) { return head(0, v); }
    Cbor& uint64(std::uint64_t v) { // always 8 bytes: patched in place by a sender
        out.push_back(std::byte(27));
        bigEndian(out, v, 8);
        return *this;
    }
    Cbor& text(const std::string& s) {
        head(3, s.size());
        for (char c : s)
            out.push_back(std::byte(c));
        return *this;
    }
    Cbor& bytes(std::span<const std::byte> b) {
        head(2, b.size());
        out.insert(out.end(), b.begin(), b.end());
        return *this;
    }
    Cbor& map(std::size_t n) { return head(5, n); }
    Cbor& array(std::size_t n) { return head(4, n); }
    Cbor& tag(std::uint64_t t) { return head(6, t); }
    Bytes out;
};

// RFC 8746 little-endian typed array tag of `dtype`.
std::uint64_t typedTag(DType dtype) {
    switch (dtype) {
    case DType::UInt8:
        return 64;
    case DType::UInt16:
        return 69;
    case DType::UInt32:
        return 70;
    case DType::Int32:
        return 78;
    case DType::Int64:
        return 79;
    case DType::Float32:
        return 85;
    default:
        return 86;
    }
}

} // namespace

Bytes compressBslz4(std::span<const std::byte> raw, std::size_t elemSize) {
    const std::size_t blockCount = 8192 / elemSize, count = raw.size() / elemSize;
    Bytes out;
    bigEndian(out, raw.size(), 8), bigEndian(out, blockCount * elemSize, 4);
    Bytes shuffled(blockCount * elemSize);
    std::vector<char> packed(std::size_t(LZ4_compressBound(int(shuffled.size()))));
    std::size_t done = 0;
    auto one = [&](std::size_t n) {
        bitShuffle(raw.data() + done * elemSize, shuffled.data(), n, elemSize);
        const int size = LZ4_compress_default(reinterpret_cast<const char*>(shuffled.data()),
                                              packed.data(), int(n * elemSize), int(packed.size()));
        bigEndian(out, std::uint64_t(size), 4);
        const auto* p = reinterpret_cast<const std::byte*>(packed.data());
        out.insert(out.end(), p, p + size);
        done += n;
    };
    for (std::size_t b = 0; b < count / blockCount; ++b)
        one(blockCount);
    if (const std::size_t last = (count % blockCount) / 8 * 8) one(last);
    out.insert(out.end(), raw.begin() + std::ptrdiff_t(done * elemSize), raw.end());
    return out;
}

Bytes encodeStart(std::size_t height, std::size_t width, DType dtype, std::uint64_t images) {
    Cbor c;
    c.map(8).text("type").text("start").text("series_id").uint(1);
    c.text("series_unique_id").text("clscope-bench-1");
    c.text("channels").array(1).text("threshold_1");
    c.text("image_size_x").uint(width).text("image_size_y").uint(height);
    c.text("image_dtype").text(dtypeName(dtype)).text("number_of_images").uint(images);
    return c.out;
}

Bytes encodeImage(std::uint64_t imageId, std::size_t height, std::size_t width, DType dtype,
                  std::span<const std::byte> bslz4) {
    Cbor c;
    c.map(4).text("type").text("image").text("series_id").uint(1);
    c.text("image_id").uint64(imageId);
    c.text("data").map(1).text("threshold_1").tag(40).array(2).array(2).uint(height).uint(width);
    c.tag(typedTag(dtype)).tag(56500).array(3).text("bslz4").uint(dtypeSize(dtype)).bytes(bslz4);
    return c.out;
}

void setImageId(Bytes& image, std::uint64_t imageId) {
    const std::string key = "\x68image_id\x1b";
    const auto* k = reinterpret_cast<const std::byte*>(key.data());
    const auto at = std::search(image.begin(), image.end(), k, k + key.size()) + key.size();
    for (int i = 7; i >= 0; --i, imageId >>= 8)
        at[i] = std::byte(imageId & 0xFF);
}

Bytes encodeEnd() {
    Cbor c;
    c.map(2).text("type").text("end").text("series_id").uint(1);
    return c.out;
}

} // namespace clscope::stream
