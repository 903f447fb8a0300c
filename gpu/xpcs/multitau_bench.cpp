// clscope-cli bench xpcs --size multitau: 512x1024 uint8 frames from host memory, end to end
// (upload, kernels, per-row sums back, statistics), throughput in frames/s.
#include "core/xpcs/synthetic.hpp"
#include "gpu/xpcs/bench_bins.hpp"
#include "gpu/xpcs/multitau.hpp"

#include <algorithm>

namespace clscope::xpcs {

namespace {

constexpr std::size_t poolFrames = 512;     // distinct frames held in memory (256 MiB)
constexpr std::size_t streamFrames = 16384; // frames of the series, cycling through the pool

std::shared_ptr<XpcsInput> repeating(const Array& pool, LabelMask labels) {
    auto in = makeInput(pool, std::move(labels), {{"file", "synthetic xpcs multitau"}});
    in->blocks = blocksRepeating(in->frames, streamFrames);
    return in;
}

} // namespace

BenchCase multitauBenchCase(const ParamSet& defaults) {
    synthetic::XpcsParams p;
    p.model = "seed", p.frames = poolFrames, p.height = 512, p.width = 1024;
    synthetic::XpcsDataset d = synthetic::generateXpcs(p);
    BenchCase c;
    c.params = defaults;
    c.params.set("multitau", true);
    c.params.set("keep_sums", false); // the variant's rate: no host pass for /xpcs/sums
    c.description = std::to_string(streamFrames) + " x 512x1024 uint8 from host memory (" +
                    std::to_string(poolFrames) + " distinct), " +
                    std::to_string(d.labels.bins().size()) +
                    " bins, multi-tau C=16, end to end; pixel-frames/s = frames/s x 524288";
    c.work = static_cast<double>(streamFrames), c.unit = "frames/s", c.unitScale = 1;
    c.endToEnd = true;
    c.referenceInput = repeating(d.frames, threeBins(d.labels));
    c.input = repeating(d.frames, std::move(d.labels));
    return c;
}

} // namespace clscope::xpcs
