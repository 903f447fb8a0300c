// Bitshuffle's inverse on one block, as bitshuffle itself does it ("trans_byte_bitrow" then
// "shuffle_bit_eightelem"): bytes of 16 bit rows transposed as 16x16 byte tiles in SSE2
// registers, then each register's top bits gathered 16 at a time (movemask) into 8 elements'
// two bytes; without SSE2, or for 1-byte elements, eight 8-byte words of eight bit rows are
// transposed as an 8x8 byte matrix and each word as an 8x8 bit matrix. No per-bit loop.
#include "core/stream/compression.hpp"

#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace clscope::stream {
namespace {

using u64 = std::uint64_t;

u64 load(const std::byte* p) {
    u64 v;
    std::memcpy(&v, p, 8);
    return v;
}
void store(std::byte* p, u64 v) {
    std::memcpy(p, &v, 8);
}

// 8x8 bit matrix transpose: bit j of byte i goes to bit i of byte j.
u64 transposeBits(u64 x) {
    u64 t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
    return x ^ t ^ (t << 28);
}

// Swap the off-diagonal blocks of `Bytes` bytes between rows i and i + Rows (little-endian).
template <int Rows, int Bytes> inline void swapBlocks(u64* w, u64 low) {
    for (int i = 0; i < 8; ++i)
        if ((i & Rows) == 0) {
            const u64 a = w[i], b = w[i + Rows];
            w[i] = (a & low) | ((b & low) << (8 * Bytes));
            w[i + Rows] = ((a >> (8 * Bytes)) & low) | (b & ~low);
        }
}

// 8x8 byte matrix transpose: byte j of w[i] goes to byte i of w[j].
inline void transposeBytes(u64* w) {
    swapBlocks<4, 4>(w, 0x00000000FFFFFFFFULL);
    swapBlocks<2, 2>(w, 0x0000FFFF0000FFFFULL);
    swapBlocks<1, 1>(w, 0x00FF00FF00FF00FFULL);
}

// The 4 low bytes of x, one every other byte.
u64 spreadBytes(u64 x) {
    x &= 0xFFFFFFFFULL;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL;
    return (x | (x << 8)) & 0x00FF00FF00FF00FFULL;
}

// Elements 8k .. 8k + 7 from byte k of every bit row, one byte at a time (the block's tail).
void unshuffleColumn(const std::byte* in, std::byte* out, std::size_t k, std::size_t rowBytes,
                     std::size_t elemSize) {
    for (std::size_t b = 0; b < elemSize; ++b) {
        u64 x = 0;
        for (std::size_t i = 0; i < 8; ++i)
            x |= std::to_integer<u64>(in[(b * 8 + i) * rowBytes + k]) << (8 * i);
        x = transposeBits(x);
        for (std::size_t j = 0; j < 8; ++j)
            out[(k * 8 + j) * elemSize + b] = std::byte(x >> (8 * j));
    }
}

// Elements 8k .. 8k + 63 (byte k .. k + 7 of every bit row) as 64-bit words; ElemSize 0: any
// size (elemSize), else that one, known to the compiler.
template <std::size_t ElemSize>
void unshuffleEight(const std::byte* in, std::byte* out, std::size_t k, std::size_t rowBytes,
                    std::size_t elemSize) {
    if constexpr (ElemSize != 0) elemSize = ElemSize;
    u64 y[8][8]; // y[b][c]: byte b of elements 8(k + c) .. 8(k + c) + 7
    for (std::size_t b = 0; b < elemSize; ++b) {
        u64 w[8];
        for (std::size_t i = 0; i < 8; ++i)
            w[i] = load(in + (b * 8 + i) * rowBytes + k);
        transposeBytes(w);
        for (std::size_t c = 0; c < 8; ++c)
            y[b][c] = transposeBits(w[c]);
    }
    std::byte* o = out + k * 8 * elemSize;
    for (std::size_t c = 0; c < 8; ++c, o += 8 * elemSize)
        if constexpr (ElemSize == 1) {
            store(o, y[0][c]);
        } else if constexpr (ElemSize == 2) {
            store(o, spreadBytes(y[0][c]) | spreadBytes(y[1][c]) << 8);
            store(o + 8, spreadBytes(y[0][c] >> 32) | spreadBytes(y[1][c] >> 32) << 8);
        } else {
            for (std::size_t j = 0; j < 8; ++j)
                for (std::size_t b = 0; b < elemSize; ++b)
                    o[j * elemSize + b] = std::byte(y[b][c] >> (8 * j));
        }
}

template <std::size_t ElemSize>
std::size_t unshuffleWords(const std::byte* in, std::byte* out, std::size_t k, std::size_t rowBytes,
                           std::size_t elemSize) {
    for (; k + 8 <= rowBytes; k += 8)
        unshuffleEight<ElemSize>(in, out, k, rowBytes, elemSize);
    return k;
}

#if defined(__SSE2__)
// Elements 8k .. 8k + 127 of an even elemSize (bytes k .. k + 15 of every bit row): tile t
// (rows 16t .. 16t + 15) gives bytes 2t and 2t + 1 of each element.
void unshuffleSixteen(const std::byte* in, std::byte* out, std::size_t k, std::size_t rowBytes,
                      std::size_t elemSize) {
    for (std::size_t t = 0; t < elemSize / 2; ++t) {
        __m128i x[16], y[16];
        for (std::size_t r = 0; r < 16; ++r)
            x[r] =
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (16 * t + r) * rowBytes + k));
        for (int j = 0; j < 8; ++j) { // byte transpose: register o = column bitreversed(o)
            y[j] = _mm_unpacklo_epi8(x[2 * j], x[2 * j + 1]);
            y[j + 8] = _mm_unpackhi_epi8(x[2 * j], x[2 * j + 1]);
        }
        for (int j = 0; j < 8; ++j) {
            x[j] = _mm_unpacklo_epi16(y[2 * j], y[2 * j + 1]);
            x[j + 8] = _mm_unpackhi_epi16(y[2 * j], y[2 * j + 1]);
        }
        for (int j = 0; j < 8; ++j) {
            y[j] = _mm_unpacklo_epi32(x[2 * j], x[2 * j + 1]);
            y[j + 8] = _mm_unpackhi_epi32(x[2 * j], x[2 * j + 1]);
        }
        for (int j = 0; j < 8; ++j) {
            x[j] = _mm_unpacklo_epi64(y[2 * j], y[2 * j + 1]);
            x[j + 8] = _mm_unpackhi_epi64(y[2 * j], y[2 * j + 1]);
        }
        static constexpr int column[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
        for (int o = 0; o < 16; ++o) {
            std::byte* e = out + ((k + std::size_t(column[o])) * 8 * elemSize) + 2 * t;
            __m128i v = x[o];
            for (int bit = 7; bit >= 0; --bit) { // top bits: element 8(k + c) + bit
                const auto two = static_cast<std::uint16_t>(_mm_movemask_epi8(v));
                std::memcpy(e + std::size_t(bit) * elemSize, &two, 2);
                v = _mm_slli_epi16(v, 1);
            }
        }
    }
}
#endif

} // namespace

void bitUnshuffle(const std::byte* in, std::byte* out, std::size_t count, std::size_t elemSize) {
    const std::size_t rowBytes = count / 8; // bit row r = byte b, bit i of every element
    std::size_t k = 0;
#if defined(__SSE2__)
    if (elemSize % 2 == 0)
        for (; k + 16 <= rowBytes; k += 16)
            unshuffleSixteen(in, out, k, rowBytes, elemSize);
#endif
    k = elemSize == 2   ? unshuffleWords<2>(in, out, k, rowBytes, elemSize)
        : elemSize == 1 ? unshuffleWords<1>(in, out, k, rowBytes, elemSize)
                        : unshuffleWords<0>(in, out, k, rowBytes, elemSize);
    for (; k < rowBytes; ++k)
        unshuffleColumn(in, out, k, rowBytes, elemSize);
}

void bitShuffle(const std::byte* in, std::byte* out, std::size_t count, std::size_t elemSize) {
    const std::size_t rowBytes = count / 8;
    for (std::size_t k = 0; k < rowBytes; ++k)
        for (std::size_t b = 0; b < elemSize; ++b) {
            u64 x = 0; // byte j: byte b of element 8k + j
            for (std::size_t j = 0; j < 8; ++j)
                x |= std::to_integer<u64>(in[(k * 8 + j) * elemSize + b]) << (8 * j);
            x = transposeBits(x); // byte i: bit i of those 8 elements
            for (std::size_t i = 0; i < 8; ++i)
                out[(b * 8 + i) * rowBytes + k] = std::byte(x >> (8 * i));
        }
}

} // namespace clscope::stream
