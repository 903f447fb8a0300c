// The CPU reference of xpcs (variant `cpu`): per bin, the lower triangle of the Gram matrix
// N(t1,t2) = sum_p I_t1(p) I_t2(p) in blocked tiles over std::threads, then lag statistics.
#include "core/xpcs/xpcs.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

namespace clscope::xpcs {

namespace {

constexpr std::size_t tileFrames = 32;    // Gram tile edge (tile of doubles stays in L1)
constexpr std::size_t pixelBlock = 2048;  // pixels gathered at once

// One bin's pixel values gathered pixel-major, x[p * T + t], in the accumulation type.
template <class Acc, class T>
void gatherBlock(std::span<const T> frames, std::size_t frameSize, std::size_t frameCount,
                 const std::int32_t* pixels, std::size_t count, std::vector<Acc>& x) {
    x.resize(count * frameCount);
    for (std::size_t t = 0; t < frameCount; ++t)
        for (std::size_t p = 0; p < count; ++p)
            x[p * frameCount + t] = static_cast<Acc>(frames[t * frameSize + pixels[p]]);
}

// Gram tile (rows r0.., cols c0..) += sum over the block's pixels, as rank-1 updates.
template <class Acc>
void accumulateTile(const std::vector<Acc>& x, std::size_t count, std::size_t frameCount,
                    std::size_t r0, std::size_t c0, std::vector<Acc>& gram) {
    const std::size_t r1 = std::min(frameCount, r0 + tileFrames);
    const std::size_t c1 = std::min(frameCount, c0 + tileFrames);
    for (std::size_t p = 0; p < count; ++p) {
        const Acc* xp = &x[p * frameCount];
        for (std::size_t t1 = r0; t1 < r1; ++t1) {
            const Acc v = xp[t1];
            Acc* row = &gram[t1 * frameCount];
            const std::size_t end = std::min(c1, t1 + 1); // lower triangle only
            for (std::size_t t2 = c0; t2 < end; ++t2) row[t2] += v * xp[t2];
        }
    }
}

// Run every lower-triangle tile of the Gram matrix over a pool of threads.
template <class Acc>
void accumulateGram(const std::vector<Acc>& x, std::size_t count, std::size_t frameCount,
                    unsigned threads, const Progress& progress, std::vector<Acc>& gram) {
    const std::size_t tiles = (frameCount + tileFrames - 1) / tileFrames;
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i; (i = next++) < tiles * (tiles + 1) / 2;) {
            if (progress.cancelled()) return;
            // Tile i of the lower triangle: row tile r, column tile c <= r.
            std::size_t r = static_cast<std::size_t>((std::sqrt(8.0 * i + 1) - 1) / 2);
            while (r * (r + 1) / 2 > i) --r;
            while ((r + 1) * (r + 2) / 2 <= i) ++r;
            const std::size_t c = i - r * (r + 1) / 2;
            accumulateTile(x, count, frameCount, r * tileFrames, c * tileFrames, gram);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < threads; ++w) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    progress.checkCancel();
}

// Gram matrix, frame sums, g2 and two-time map of one bin.
template <class Acc, class T>
void correlateBin(std::span<const T> frames, const Array& stack, const Bins& bins, std::size_t b,
                  unsigned threads, const Progress& progress, Result& result) {
    const std::size_t frameCount = stack.frameCount(), frameSize = stack.frameSize();
    std::vector<Acc> gram(frameCount * frameCount, Acc{}), x;
    std::vector<Acc> exactSums(frameCount, Acc{});
    const std::int64_t n = bins.pixelCounts[b];
    for (std::int64_t p0 = 0; p0 < n; p0 += pixelBlock) {
        const std::size_t count = static_cast<std::size_t>(std::min<std::int64_t>(pixelBlock, n - p0));
        gatherBlock<Acc>(frames, frameSize, frameCount, &bins.pixelIndex[bins.offsets[b] + p0],
                         count, x);
        for (std::size_t p = 0; p < count; ++p)
            for (std::size_t t = 0; t < frameCount; ++t) exactSums[t] += x[p * frameCount + t];
        accumulateGram(x, count, frameCount, threads, progress, gram);
    }
    const std::vector<double> sums(exactSums.begin(), exactSums.end());
    auto gramAt = [&](std::size_t t1, std::size_t t2) { return gram[t1 * frameCount + t2]; };
    lagStatistics(frameCount, n, sums, gramAt, &result.g2[b * frameCount],
                  &result.g2Err[b * frameCount]);
    if (result.twotime.count(bins.labels[b]))
        result.twotime[bins.labels[b]] = twotimeMap(frameCount, n, sums, gramAt);
}

// Whether sums of products of integer data stay below 2^53 (then double sums are exact).
template <class T> bool doubleIsExact(std::span<const T> frames, const Bins& bins) {
    double largest = 0;
    for (T v : frames) largest = std::max(largest, std::abs(static_cast<double>(v)));
    const double most = static_cast<double>(
        *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end()));
    return largest * largest * most * static_cast<double>(frames.size() + 1) < 9007199254740992.0;
}

} // namespace

Result correlateCpu(const Array& frames, const LabelMask& mask, const Params& params,
                    const Progress& progress) {
    checkInputs(frames, mask, params);
    const auto start = std::chrono::steady_clock::now();
    const Bins bins = makeBins(mask);
    Result result = makeResult(bins, frames.frameCount(), params);
    for (std::int32_t label : params.twotimeLabels) result.twotime[label];
    const unsigned threads =
        params.threads ? params.threads : std::max(1u, std::thread::hardware_concurrency());
    visitArray(frames, [&](auto values) {
        using T = typename decltype(values)::value_type;
        // Float data, and integer data whose sums stay below 2^53, in double; else int64.
        const bool useDouble = !std::is_integral_v<T> || doubleIsExact(values, bins);
        for (std::size_t b = 0; b < bins.count(); ++b) {
            if (useDouble)
                correlateBin<double>(values, frames, bins, b, threads, progress, result);
            else
                correlateBin<std::int64_t>(values, frames, bins, b, threads, progress, result);
            progress.report(static_cast<double>(b + 1) / static_cast<double>(bins.count()));
        }
    });
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    result.device = "cpu";
    result.variant = "cpu";
    result.kernelMs = elapsed.count();
    result.timings.add("xpcs cpu", elapsed.count());
    return result;
}

} // namespace clscope::xpcs
