// The host fold of multi-tau (MultitauStats::addRows) on synthetic rows shaped like the sparse
// bench's (issue 55): B bins, C channels, blocks of rows of every level, one thread (or more).
// Prints the CPU ns per pair update and a hash of g2 and g2_err's bits (equal hashes:
// bit-identical results). Not a test: built on request (ninja bench_multitau_fold).
// Usage: bench_multitau_fold [frames] [bins] [channels] [int64|int128|double] [mean] [threads]
#include "core/xpcs/multitau.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>

using namespace clscope;
using namespace clscope::xpcs;

namespace {

struct FoldShape {
    std::size_t frames = 16384, bins = 57, block = 1024;
    int channels = 16;
    std::size_t threads = 1;
    double mean = 9.0; // mean frame sum per bin and frame (0.1 % of 512 x 1024 over 57 bins)
};

// One level's rows of a block: sums (rows x B), products (rows x B x lags).
template <class V> struct LevelRows { std::vector<V> sums, products; };

template <class V>
LevelRows<V> makeRows(const FoldShape& s, int level, std::size_t rows, std::mt19937_64& rng) {
    const std::size_t lags = std::size_t(multitauLagCount(level, s.channels));
    std::poisson_distribution<int> sum(s.mean * double(1u << level));
    std::poisson_distribution<int> product(s.mean * 0.002 * double(1u << (2 * level)) + 0.01);
    LevelRows<V> out;
    out.sums.resize(rows * s.bins);
    out.products.resize(rows * s.bins * lags);
    for (V& v : out.sums)
        v = static_cast<V>(sum(rng));
    for (V& v : out.products)
        v = static_cast<V>(product(rng));
    return out;
}

// The process's CPU time, all threads (a host shared with other jobs: wall time counts theirs).
double cpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

std::uint64_t hashOf(const std::vector<double>& values, std::uint64_t h) {
    for (double v : values) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        h = (h ^ bits) * 0x100000001b3ull;
    }
    return h;
}

template <class V> using Block = std::vector<LevelRows<V>>; // a block's rows, level by level

// Every level's rows of every block, made before the fold is timed.
template <class V> std::vector<Block<V>> makeBlocks(const FoldShape& s) {
    std::mt19937_64 rng(55);
    std::vector<Block<V>> blocks;
    for (std::size_t first = 0; first < s.frames; first += s.block) {
        Block<V>& levels = blocks.emplace_back();
        for (int k = 0; (s.block >> k) > 0; ++k)
            levels.push_back(makeRows<V>(s, k, s.block >> k, rng));
    }
    return blocks;
}

// The pair updates of rows [first, first + count) of level k.
std::size_t pairsOf(const FoldShape& s, int k, std::size_t first, std::size_t count) {
    const std::size_t lags = std::size_t(multitauLagCount(k, s.channels));
    const std::size_t lag0 = std::size_t(multitauFirstLag(k, s.channels));
    std::size_t pairs = 0;
    for (std::size_t t = first; t < first + count; ++t)
        pairs += s.bins * (t < lag0 ? 0 : std::min(lags, t - lag0 + 1));
    return pairs;
}

struct Seconds {
    double cpu = 0, wall = 0;
};

// A block into the statistics (as the device variants' merge does: all levels at once), its
// CPU and wall seconds; `rowsOf` the rows of each level so far, `pairs` counts the updates.
template <class V>
Seconds foldBlock(const FoldShape& s, const Block<V>& levels, MultitauStats& stats,
                  std::vector<std::size_t>& rowsOf, std::size_t& pairs) {
    std::vector<StatsRows<V>> rows;
    for (std::size_t k = 0; k < levels.size(); ++k) {
        const std::size_t count = s.block >> k;
        rows.push_back(
            {int(k), rowsOf[k], count, levels[k].sums.data(), levels[k].products.data()});
        pairs += pairsOf(s, int(k), rowsOf[k], count);
        rowsOf[k] += count;
    }
    const double start = cpuSeconds();
    const auto wall = std::chrono::steady_clock::now();
    if constexpr (std::is_floating_point_v<V>)
        for (const StatsRows<V>& r : rows)
            stats.addRows(r.level, r.first, r.count, r.sums, r.products);
    else
        stats.addRows(rows);
    return {cpuSeconds() - start,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count()};
}

template <class V> void run(const FoldShape& s) {
    Bins bins;
    for (std::size_t b = 0; b < s.bins; ++b)
        bins.labels.push_back(std::int32_t(b + 1)), bins.pixelCounts.push_back(9000 + 37 * b);
    MultitauStats stats(bins, s.channels, !std::is_floating_point_v<V>);
    stats.setThreads(s.threads);
    const std::vector<Block<V>> blocks = makeBlocks<V>(s);
    std::vector<std::size_t> rowsOf(blocks.front().size(), 0);
    std::size_t pairs = 0;
    Seconds seconds;
    for (const Block<V>& levels : blocks) {
        const Seconds block = foldBlock(s, levels, stats, rowsOf, pairs);
        seconds.cpu += block.cpu, seconds.wall += block.wall;
    }
    const Result r = stats.finish(bins, s.frames, Params{});
    std::printf(
        "%zu pairs in %.3f s CPU (%.2f ns per pair), %.3f s wall on %zu threads; hash %016llx\n",
        pairs, seconds.cpu, seconds.cpu * 1e9 / double(pairs), seconds.wall, s.threads,
        static_cast<unsigned long long>(hashOf(r.g2Err, hashOf(r.g2, 1469598103934665603ull))));
}

} // namespace

int main(int argc, char** argv) {
    FoldShape s;
    if (argc > 1) s.frames = std::stoul(argv[1]);
    if (argc > 2) s.bins = std::stoul(argv[2]);
    if (argc > 3) s.channels = std::stoi(argv[3]);
    const std::string type = argc > 4 ? argv[4] : "int64";
    if (argc > 5) s.mean = std::stod(argv[5]);
    if (argc > 6) s.threads = std::stoul(argv[6]);
    if (type == "int128")
        run<Int128>(s);
    else if (type == "double")
        run<double>(s);
    else
        run<std::int64_t>(s);
}
