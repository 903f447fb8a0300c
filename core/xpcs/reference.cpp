// The CPU reference of xpcs (variant `cpu`): per bin, the lower triangle of the Gram matrix
// N(t1,t2) = sum_p I_t1(p) I_t2(p), then lag statistics. Pixels are packed pixel-major in
// panels of 64 bytes of frames; a register-blocked micro-kernel (4 x 64 bytes of sums) runs
// over chunks of 128 pixels, whose sums are exact, and adds them into the exact Gram matrix.
// Panel pairs are spread over std::threads.
#include "core/errors.hpp"
#include "core/xpcs/xpcs.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

namespace clscope::xpcs {

namespace {

constexpr std::size_t blockPixels = 4096; // pixels of a bin packed at once
constexpr std::size_t chunkPixels = 128;  // pixels summed in registers (fp32 exact up to 256)
constexpr std::size_t microRows = 4;      // Gram rows of one micro-kernel call

// Frames per packed panel: 64 bytes of the element type, two 32-byte vectors (AVX2 registers).
template <class E> constexpr std::size_t panelWidth = 64 / sizeof(E);
template <class E> struct Simd {
    // Unaligned and allowed to alias E, so that it loads from and stores into arrays of E.
    typedef E Vec __attribute__((vector_size(32), aligned(alignof(E)), may_alias));
};

// AVX2 code for the micro-kernel where the CPU has it (GCC/Clang on x86-64), else baseline.
#if defined(__GNUC__) && defined(__x86_64__)
#define CLSCOPE_TARGET_AVX2 __attribute__((target("avx2")))
bool hasAvx2() {
    return __builtin_cpu_supports("avx2");
}
#else
#define CLSCOPE_TARGET_AVX2
bool hasAvx2() {
    return false;
}
#endif

// fn(i) for i in [0, count) over a pool of threads.
template <class Fn>
void parallelFor(std::size_t count, unsigned threads, const Progress& progress, Fn&& fn) {
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i; (i = next++) < count;) {
            if (progress.cancelled()) return;
            fn(i);
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t w = 1; w < std::min<std::size_t>(threads, count); ++w)
        pool.emplace_back(worker);
    worker();
    for (auto& th : pool)
        th.join();
    progress.checkCancel();
}

// A block of one bin's pixels, packed: panel j holds frames [j*W, j*W + W) of every pixel,
// x[(j * count + p) * W + c], zero past the last frame (W = panelWidth<E>).
template <class E> struct PackedBlock {
    std::size_t count = 0, panels = 0;
    std::vector<E> x;
};

// Pack `count` pixels (one panel per task) and add their values to the frame sums.
template <class E, class Acc, class T>
void packBlock(std::span<const T> frames, std::size_t frameSize, std::size_t frameCount,
               const std::int32_t* pixels, std::size_t count, unsigned threads,
               const Progress& progress, PackedBlock<E>& block, std::vector<Acc>& sums) {
    constexpr std::size_t W = panelWidth<E>;
    block.count = count;
    block.panels = (frameCount + W - 1) / W;
    block.x.resize(block.panels * count * W);
    parallelFor(block.panels, threads, progress, [&](std::size_t j) {
        for (std::size_t c = 0, t = j * W; c < W; ++c, ++t) {
            E* to = &block.x[j * count * W + c];
            Acc sum{};
            for (std::size_t p = 0; p < count; ++p) {
                const T value = t < frameCount ? frames[t * frameSize + pixels[p]] : T{};
                to[p * W] = static_cast<E>(value);
                sum += static_cast<Acc>(value);
            }
            if (t < frameCount) sums[t] += sum;
        }
    });
}

// out[r][c] = sum over `count` pixels of rows[p][r0 + r] * cols[p][c], r < microRows.
template <class E>
[[gnu::always_inline]] inline void microKernel(const E* rows, const E* cols, std::size_t count,
                                               std::size_t r0, E (*out)[panelWidth<E>]) {
    constexpr std::size_t W = panelWidth<E>;
    using Vec = typename Simd<E>::Vec;
    Vec s[microRows][2] = {};
    for (std::size_t p = 0; p < count; ++p) {
        const Vec* col = reinterpret_cast<const Vec*>(cols + p * W);
        const E* row = rows + p * W + r0;
#pragma GCC unroll 4
        for (std::size_t r = 0; r < microRows; ++r)
            s[r][0] += row[r] * col[0], s[r][1] += row[r] * col[1];
    }
#pragma GCC unroll 4
    for (std::size_t r = 0; r < microRows; ++r) {
        Vec* to = reinterpret_cast<Vec*>(out[r]);
        to[0] = s[r][0], to[1] = s[r][1];
    }
}

// Gram (lower triangle, rows t1First.., columns t2First..) += a micro-kernel's sums.
template <class E, class Acc>
void addToGram(const E (*sums)[panelWidth<E>], std::size_t t1First, std::size_t t2First,
               std::size_t frameCount, Acc* gram) {
    for (std::size_t r = 0; r < microRows && t1First + r < frameCount; ++r) {
        const std::size_t t1 = t1First + r, end = std::min(t2First + panelWidth<E>, t1 + 1);
        for (std::size_t t2 = t2First; t2 < end; ++t2)
            gram[t1 * frameCount + t2] += static_cast<Acc>(sums[r][t2 - t2First]);
    }
}

// Unit i of the lower triangle of panel pairs (row panel >= column panel): its Gram block
// += the packed block's pixels, chunk by chunk (a chunk's panel rows stay in L1).
template <class E, class Acc>
[[gnu::always_inline]] inline void accumulateUnit(const PackedBlock<E>& block, std::size_t i,
                                                  std::size_t frameCount, Acc* gram) {
    constexpr std::size_t W = panelWidth<E>;
    std::size_t r = static_cast<std::size_t>((std::sqrt(8.0 * i + 1) - 1) / 2);
    while (r * (r + 1) / 2 > i)
        --r;
    while ((r + 1) * (r + 2) / 2 <= i)
        ++r;
    const std::size_t c = i - r * (r + 1) / 2;
    const E* rows = &block.x[r * block.count * W];
    const E* cols = &block.x[c * block.count * W];
    alignas(64) E sums[microRows][W];
    for (std::size_t p0 = 0; p0 < block.count; p0 += chunkPixels) {
        const std::size_t count = std::min(chunkPixels, block.count - p0);
        for (std::size_t r0 = 0; r0 < W; r0 += microRows) {
            microKernel(rows + p0 * W, cols + p0 * W, count, r0, sums);
            addToGram(sums, r * W + r0, c * W, frameCount, gram);
        }
    }
}

// accumulateUnit compiled for AVX2 and for the baseline.
template <class E, class Acc>
CLSCOPE_TARGET_AVX2 void accumulateUnitAvx2(const PackedBlock<E>& block, std::size_t i,
                                            std::size_t frameCount, Acc* gram) {
    accumulateUnit(block, i, frameCount, gram);
}
template <class E, class Acc>
void accumulateUnitBaseline(const PackedBlock<E>& block, std::size_t i, std::size_t frameCount,
                            Acc* gram) {
    accumulateUnit(block, i, frameCount, gram);
}

template <class Acc, class GramAt>
void finishBin(const Bins& bins, std::size_t b, std::size_t frameCount, bool integerData,
               const std::vector<Acc>& exactSums, GramAt&& gramAt, Result& result);

// Gram matrix, frame sums, g2 and two-time map of one bin. E: element type of the packed
// pixels and the micro-kernel sums (exact over a chunk), Acc: exact type of the Gram matrix.
template <class E, class Acc, class T>
void correlateBin(std::span<const T> frames, const Array& stack, const Bins& bins, std::size_t b,
                  unsigned threads, const Progress& progress, Result& result) {
    const std::size_t frameCount = stack.frameCount(), frameSize = stack.frameSize();
    std::vector<Acc> gram(frameCount * frameCount, Acc{}), exactSums(frameCount, Acc{});
    const auto unit = hasAvx2() ? accumulateUnitAvx2<E, Acc> : accumulateUnitBaseline<E, Acc>;
    PackedBlock<E> block;
    const std::int64_t n = bins.pixelCounts[b];
    for (std::int64_t p0 = 0; p0 < n; p0 += blockPixels) {
        const std::size_t count =
            static_cast<std::size_t>(std::min<std::int64_t>(blockPixels, n - p0));
        packBlock(frames, frameSize, frameCount, &bins.pixelIndex[bins.offsets[b] + p0], count,
                  threads, progress, block, exactSums);
        parallelFor(block.panels * (block.panels + 1) / 2, threads, progress,
                    [&](std::size_t i) { unit(block, i, frameCount, gram.data()); });
    }
    finishBin(
        bins, b, frameCount, std::is_integral_v<T>, exactSums,
        [&](std::size_t t1, std::size_t t2) { return gram[t1 * frameCount + t2]; }, result);
}

// g2, g2_err and the two-time map of bin b from its exact frame sums and Gram accessor.
template <class Acc, class GramAt>
void finishBin(const Bins& bins, std::size_t b, std::size_t frameCount, bool integerData,
               const std::vector<Acc>& exactSums, GramAt&& gramAt, Result& result) {
    const std::int64_t n = bins.pixelCounts[b];
    lagStatistics(frameCount, n, exactSums, integerData, gramAt, &result.g2[b * frameCount],
                  &result.g2Err[b * frameCount]);
    if (result.twotime.count(bins.labels[b])) {
        const std::vector<double> sums(exactSums.begin(), exactSums.end());
        result.twotime[bins.labels[b]] = twotimeMap(frameCount, n, sums, gramAt);
    }
}

// Integer data (up to 32 bits) whose sums need more than 64 bits: frame-major blocks of the bin's
// pixels, each Gram entry a dot product of two frames with 64-bit products summed in 128 bits.
template <class T>
void correlateBinWide(std::span<const T> frames, const Array& stack, const Bins& bins,
                      std::size_t b, unsigned threads, const Progress& progress, Result& result) {
    using Product = std::conditional_t<std::is_unsigned_v<T>, std::uint64_t, std::int64_t>;
    const std::size_t frameCount = stack.frameCount(), frameSize = stack.frameSize();
    std::vector<Int128> gram(frameCount * frameCount, 0), sums(frameCount, 0);
    const std::int64_t n = bins.pixelCounts[b];
    std::vector<Product> block;
    for (std::int64_t p0 = 0; p0 < n; p0 += blockPixels) {
        const std::size_t count =
            static_cast<std::size_t>(std::min<std::int64_t>(blockPixels, n - p0));
        const std::int32_t* pixels = &bins.pixelIndex[bins.offsets[b] + p0];
        block.resize(frameCount * count);
        for (std::size_t t = 0; t < frameCount; ++t)
            for (std::size_t p = 0; p < count; ++p) {
                block[t * count + p] = static_cast<Product>(frames[t * frameSize + pixels[p]]);
                sums[t] += static_cast<Int128>(block[t * count + p]);
            }
        parallelFor(frameCount, threads, progress, [&](std::size_t t1) {
            const Product* row = &block[t1 * count];
            for (std::size_t t2 = 0; t2 <= t1; ++t2) {
                const Product* column = &block[t2 * count];
                Int128 acc = 0;
                for (std::size_t p = 0; p < count; ++p)
                    acc += static_cast<Int128>(row[p] * column[p]); // |product| < 2^64
                gram[t1 * frameCount + t2] += acc;
            }
        });
    }
    finishBinExact(bins, b, sums, gram, result);
}

// How integer data is summed exactly: products in double below 2^53, in int64 below 2^62,
// else in 128 bits (any 32-bit value).
enum class Sums { Double, Int64, Wide };
template <class T> Sums exactSums(std::size_t frameCount, const Bins& bins, std::uint64_t largest) {
    if constexpr (!std::is_integral_v<T>) {
        return Sums::Double;
    } else {
        const std::int64_t most =
            *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
        const UInt128 bound = UInt128(largest) * largest *
                              static_cast<UInt128>(std::max<std::int64_t>(most, chunkPixels)) *
                              (frameCount + 1);
        if (bound < (UInt128(1) << 53)) return Sums::Double;
        return bound < (UInt128(1) << 62) ? Sums::Int64 : Sums::Wide;
    }
}

} // namespace

void finishBinExact(const Bins& bins, std::size_t b, const std::vector<Int128>& sums,
                    const std::vector<Int128>& gram, Result& result) {
    const std::size_t frameCount = sums.size();
    finishBin(
        bins, b, frameCount, true, sums,
        [&](std::size_t t1, std::size_t t2) { return gram[t1 * frameCount + t2]; }, result);
}

Result correlateCpu(const Array& frames, const LabelMask& mask, const Params& params,
                    const Progress& progress) {
    checkInputs(frames, mask, params);
    const auto start = std::chrono::steady_clock::now();
    const Bins bins = makeBins(mask);
    Result result = makeLagResult(bins, frames.frameCount(), params);
    const unsigned threads =
        params.threads ? params.threads : std::max(1u, std::thread::hardware_concurrency());
    visitArray(frames, [&](auto values) {
        using T = typename decltype(values)::value_type;
        // Float data, and integer data whose sums stay below 2^53, in double; else int64
        // or 128 bits.
        const Sums how = exactSums<T>(frames.frameCount(), bins, largestMagnitude(frames, mask));
        // uint8 products in fp32 chunks of <= 256 pixels stay below 2^24: exact.
        constexpr bool small = std::is_same_v<T, std::uint8_t>;
        using ExactDouble = std::conditional_t<small, float, double>;
        using ExactInt = std::conditional_t<small, float, std::int64_t>;
        for (std::size_t b = 0; b < bins.count(); ++b) {
            if (how == Sums::Double)
                correlateBin<ExactDouble, double>(values, frames, bins, b, threads, progress,
                                                  result);
            else if (how == Sums::Int64)
                correlateBin<ExactInt, std::int64_t>(values, frames, bins, b, threads, progress,
                                                     result);
            else if constexpr (std::is_integral_v<T> && sizeof(T) <= 4) // products < 2^64
                correlateBinWide(values, frames, bins, b, threads, progress, result);
            else // no such dtype reaches here (64-bit integers are not read as frames)
                throw InputError("xpcs cpu: no exact sums for this frame type");
            progress.report(static_cast<double>(b + 1) / static_cast<double>(bins.count()));
        }
    });
    stampHostRun(result, "cpu", "xpcs cpu", start);
    return result;
}

} // namespace clscope::xpcs
