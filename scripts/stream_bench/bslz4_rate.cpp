// Decompression rate of bslz4 Stream V2 images (issue 24 item 5, without the socket): EIGER2
// 16M (4148x4362) and 4M (2068x2162) uint16 frames with spots, compressed as the bitshuffle
// HDF5 filter frames them (8192-byte blocks), then decompressed by clscope's own
// core/stream/compression.cpp on 1..N threads, each thread its own frames. The round trip is
// checked (the decompressed frame equals the original). Build (no libzmq/libcbor needed):
//   g++ -O2 -std=c++20 -I. scripts/stream_bench/bslz4_rate.cpp core/stream/compression.cpp \
//       -llz4 -pthread -o bslz4_rate
#include "core/stream/compression.hpp"

#include <lz4.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace {

// Background of a few counts, 2000 Gaussian spots up to ~2000 counts, module gaps at 0xFFFF
// (EIGER's masked value), as a photon-counting detector gives.
std::vector<std::uint16_t> frame(std::size_t h, std::size_t w, unsigned seed) {
    std::mt19937 rng(seed);
    std::poisson_distribution<int> background(0.3);
    std::vector<std::uint16_t> v(h * w);
    for (auto& x : v)
        x = static_cast<std::uint16_t>(background(rng));
    std::uniform_int_distribution<std::size_t> ry(3, h - 4), rx(3, w - 4);
    std::uniform_real_distribution<double> peak(50, 2000);
    for (int s = 0; s < int(2000 * h * w / (4148.0 * 4362.0)); ++s) {
        const std::size_t y = ry(rng), x = rx(rng);
        const double p = peak(rng);
        for (int dy = -3; dy <= 3; ++dy)
            for (int dx = -3; dx <= 3; ++dx)
                v[(y + dy) * w + x + dx] += std::uint16_t(p * std::exp(-(dy * dy + dx * dx) / 2.0));
    }
    for (std::size_t y = 514; y < h; y += 551) // horizontal gaps between modules
        for (std::size_t r = y; r < std::min(h, y + 37); ++r)
            std::fill_n(v.begin() + long(r * w), w, 0xFFFF);
    return v;
}

void put(std::vector<char>& out, std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(char(v >> (8 * i)));
}

// Bitshuffle of n elements of 2 bytes (n a multiple of 8): bit row (byte b, bit i) holds bit i
// of byte b of every element, 8 elements a byte.
void bitShuffle(const std::uint8_t* in, std::uint8_t* out, std::size_t n) {
    const std::size_t rowBytes = n / 8;
    for (std::size_t k = 0; k < rowBytes; ++k)
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t i = 0; i < 8; ++i) {
                std::uint8_t byte = 0;
                for (std::size_t j = 0; j < 8; ++j)
                    byte |= std::uint8_t(((in[(k * 8 + j) * 2 + b] >> i) & 1) << j);
                out[(b * 8 + i) * rowBytes + k] = byte;
            }
}

// bslz4 as the bitshuffle HDF5 filter frames it: total bytes (8, big-endian), block bytes (4),
// then per block its LZ4 size (4) and bytes; trailing elements (< 8) stored as they are.
std::vector<char> bslz4(const std::vector<std::uint16_t>& v) {
    const std::size_t blockElems = 4096, n = v.size();
    std::vector<char> out;
    put(out, n * 2, 8), put(out, blockElems * 2, 4);
    std::vector<std::uint8_t> shuffled(blockElems * 2);
    std::vector<char> lz(LZ4_compressBound(int(blockElems * 2)));
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(v.data());
    std::size_t done = 0;
    auto one = [&](std::size_t m) {
        bitShuffle(bytes + done * 2, shuffled.data(), m);
        const int size = LZ4_compress_default(reinterpret_cast<const char*>(shuffled.data()),
                                              lz.data(), int(m * 2), int(lz.size()));
        put(out, std::uint64_t(size), 4);
        out.insert(out.end(), lz.begin(), lz.begin() + size);
        done += m;
    };
    for (std::size_t b = 0; b < n / blockElems; ++b)
        one(blockElems);
    if (const std::size_t last = (n % blockElems) / 8 * 8) one(last);
    out.insert(out.end(), reinterpret_cast<const char*>(bytes + done * 2),
               reinterpret_cast<const char*>(bytes + n * 2));
    return out;
}

double seconds(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void measure(const char* name, std::size_t h, std::size_t w) {
    const std::vector<std::uint16_t> raw = frame(h, w, 7);
    const std::vector<char> packed = bslz4(raw);
    const std::span<const std::byte> src(reinterpret_cast<const std::byte*>(packed.data()),
                                         packed.size());
    std::vector<std::uint16_t> back(raw.size());
    clscope::stream::decompress("bslz4", 2, src,
                                {reinterpret_cast<std::byte*>(back.data()), back.size() * 2});
    const bool same = back == raw;
    std::printf("%s %zux%zu uint16: %.1f MB raw, %.2f MB bslz4 (ratio %.1f), round trip %s\n", name,
                h, w, raw.size() * 2 / 1e6, packed.size() / 1e6,
                double(raw.size() * 2) / double(packed.size()), same ? "exact" : "WRONG");
    // One thread: the LZ4 blocks alone (the rest of decompress() is the bit unshuffle).
    {
        std::vector<char> scratch(8192);
        const auto start = std::chrono::steady_clock::now();
        int frames = 0;
        for (; seconds(start) < 1.0; ++frames)
            for (std::size_t at = 12; at + 4 <= packed.size() - (raw.size() % 8) * 2;) {
                std::uint32_t size = 0;
                for (int i = 0; i < 4; ++i)
                    size = (size << 8) | std::uint8_t(packed[at + i]);
                LZ4_decompress_safe(packed.data() + at + 4, scratch.data(), int(size), 8192);
                at += 4 + size;
            }
        const double ms = 1e3 * seconds(start) / frames;
        std::printf("  1 thread, LZ4 blocks alone: %.1f ms a frame\n", ms);
    }
    for (unsigned threads : {1u, 2u, 4u, 8u, 12u, 16u}) {
        if (threads > std::thread::hardware_concurrency()) break;
        const double run = 2.0; // seconds of decompressing
        std::atomic<std::size_t> frames{0};
        std::vector<std::thread> pool;
        const auto start = std::chrono::steady_clock::now();
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&] {
                std::vector<std::uint16_t> out(raw.size());
                while (seconds(start) < run) {
                    clscope::stream::decompress(
                        "bslz4", 2, src,
                        {reinterpret_cast<std::byte*>(out.data()), out.size() * 2});
                    ++frames;
                }
            });
        for (auto& t : pool)
            t.join();
        const double fps = double(frames) / seconds(start);
        std::printf("  %2u threads: %8.1f frames/s decompressed (%.2f GB/s out)\n", threads, fps,
                    fps * double(raw.size() * 2) / 1e9);
    }
}

} // namespace

int main() {
    std::printf("host cores: %u\n", std::thread::hardware_concurrency());
    measure("16M", 4148, 4362);
    measure("4M", 2068, 2162);
}
