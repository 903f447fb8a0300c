// clscope-cli bench xpcs --size sparse (sparse0.2 .. sparse10): multi-tau of 512x1024
// frames of photon counts at 0.1 % (0.2 % .. 10 %) occupancy held as entries in host memory, end
// to end (entries up, kernels, the statistics): frames/s, and entries (events)/s
// from the run's entries. The dense path's rate is `--size multitau`'s (DESIGN.md §7).
// --size sparselags (sparselags0.3, sparselags1, sparselags3): dense lags (every lag) of 1,000
// such frames at 0.1 % (0.3 %, 1 %, 3 %), held both as entries
// (what sparse-cpu and sparse-pairs read) and densified (what the dense variants read), end to
// end, so that the sparse and dense designs meet on the same frames.
#include "core/xpcs/sparse_blocks.hpp"
#include "core/xpcs/synthetic.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/bench_bins.hpp"
#include "gpu/xpcs/multitau.hpp"

#include <random>

namespace clscope::xpcs {

namespace {

constexpr std::size_t photonPool = 512;     // distinct frames held in memory
constexpr std::size_t photonFrames = 65536; // frames of the series, cycling through the pool
constexpr std::size_t photonHeight = 512, photonWidth = 1024;

// Frames of single photons at uniformly random pixels, their number Poisson of mean
// occupancy · H·W (a pixel hit twice in a frame: two entries, summed as stored entries are).
std::shared_ptr<SparseBlock> photons(double occupancy) {
    auto pool = std::make_shared<SparseBlock>();
    pool->where = "synthetic photons";
    std::mt19937_64 rng(7);
    std::poisson_distribution<int> hits(occupancy * double(photonHeight * photonWidth));
    std::uniform_int_distribution<std::int32_t> pixel(0,
                                                      std::int32_t(photonHeight * photonWidth) - 1);
    for (std::size_t f = 0; f < photonPool; ++f) {
        for (int n = hits(rng); n > 0; --n) {
            pool->pixel.push_back(pixel(rng));
            pool->count.push_back(1);
        }
        pool->ptr.push_back(static_cast<std::int64_t>(pool->pixel.size()));
    }
    return pool;
}

// `frames` frames as entries; `dense`: the input's frames densified too (else its first).
std::shared_ptr<XpcsInput> sparseInput(const std::shared_ptr<SparseBlock>& pool, LabelMask labels,
                                       std::size_t frames = photonFrames, bool dense = false) {
    auto blocks = blocksSparseRepeating(pool, photonHeight, photonWidth, DType::UInt8, frames);
    auto in = makeInput(blocks->read(0, dense ? frames : 1), std::move(labels),
                        {{"file", "synthetic sparse photons"}});
    in->blocks = std::move(blocks);
    return in;
}

// The bins of the bench's 512x1024 frames.
LabelMask photonBins() {
    synthetic::XpcsParams p;
    p.model = "seed", p.frames = 1, p.height = photonHeight, p.width = photonWidth;
    return synthetic::generateXpcs(p).labels;
}

} // namespace

BenchCase sparseBenchCase(const ParamSet& defaults, double occupancy) {
    LabelMask labels = photonBins();
    const auto pool = photons(occupancy);
    BenchCase c;
    c.params = defaults;
    c.params.set("multitau", true);
    c.params.set("keep_sums", false);
    c.description = std::to_string(photonFrames) + " x 512x1024 uint8 photon counts at " +
                    std::to_string(occupancy * 100).substr(0, 4) + " % occupancy (" +
                    std::to_string(pool->entries() / photonPool) +
                    " entries a frame) as entries in host memory (" + std::to_string(photonPool) +
                    " distinct), " + std::to_string(labels.bins().size()) +
                    " bins, multi-tau C=16, end to end; events/s = frames/s x entries a frame";
    c.work = static_cast<double>(photonFrames), c.unit = "frames/s", c.unitScale = 1;
    c.endToEnd = true;
    c.uploadBytes = double(photonFrames) / photonPool * double(pool->entries()) * 8;
    c.referenceInput = sparseInput(pool, threeBins(labels));
    c.input = sparseInput(pool, std::move(labels));
    return c;
}

BenchCase sparseLagsBenchCase(const ParamSet& defaults, double occupancy) {
    constexpr std::size_t frames = 1000;
    LabelMask labels = photonBins();
    const auto pool = photons(occupancy);
    BenchCase c;
    c.params = defaults;
    c.params.set("keep_sums", false);
    c.description = std::to_string(frames) + " x 512x1024 uint8 photon counts at " +
                    std::to_string(occupancy * 100).substr(0, 4) +
                    " % occupancy as entries and densified "
                    "in host memory, " +
                    std::to_string(labels.bins().size()) + " bins, every lag, end to end";
    c.work = static_cast<double>(frames), c.unit = "frames/s", c.unitScale = 1;
    c.endToEnd = true;
    c.referenceInput = sparseInput(pool, threeBins(labels), frames, true);
    c.input = sparseInput(pool, std::move(labels), frames, true);
    return c;
}

} // namespace clscope::xpcs
