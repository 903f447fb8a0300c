// The xpcs bench case: the seed dataset (500 x 201x241 uint8, 15 ring bins) or the large one
// (2000 x 511x511 uint8, 8-pixel rings, 45 bins), every variant against the cpu reference.
#include "core/errors.hpp"
#include "core/synthetic/synthetic.hpp"
#include "gpu/bench.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"

#include <cmath>

namespace clscope::xpcs {

namespace {

synthetic::XpcsParams benchDataset(const std::string& size) {
    synthetic::XpcsParams p; // seed: 500 x 201 x 241, rings of 10 pixels
    if (size == "large") p.frames = 2000, p.height = 511, p.width = 511, p.ringWidth = 8;
    else if (size != "seed") throw UsageError("bench: --size must be seed or large, not '" + size + "'");
    return p;
}

// The cpu reference on a few bins (all for seed, three spread-out bins for large).
std::pair<Result, LabelMask> referenceOn(const synthetic::XpcsDataset& d, const std::string& size) {
    LabelMask subset = d.labels;
    if (size == "large") {
        const std::vector<std::int32_t> all = d.labels.bins();
        const std::vector<std::int32_t> keep{all.front(), all[all.size() / 2], all.back()};
        for (std::int32_t& l : subset.labels)
            if (std::find(keep.begin(), keep.end(), l) == keep.end()) l = 0;
    }
    return {correlateCpu(d.frames, subset, {}), subset};
}

// Largest relative difference of g2 and g2_err over the reference's bins.
double deviation(const Result& got, const Result& ref) {
    double worst = 0;
    for (std::size_t rb = 0; rb < ref.binCount(); ++rb) {
        const auto it = std::find(got.labels.begin(), got.labels.end(), ref.labels[rb]);
        const std::size_t gb = static_cast<std::size_t>(it - got.labels.begin());
        for (std::size_t t = 0; t < ref.frames; ++t)
            for (auto [a, b] : {std::pair{got.g2At(gb, t), ref.g2At(rb, t)},
                                std::pair{got.g2ErrAt(gb, t), ref.g2ErrAt(rb, t)}}) {
                if (std::isnan(a) && std::isnan(b)) continue;
                const double d = std::abs(a - b) / std::max(std::abs(b), 1e-300);
                worst = std::max(worst, std::isnan(d) ? INFINITY : d);
            }
    }
    return worst;
}

// Warm-up plus `repeat` timed runs of one variant on one device.
BenchRow benchVariant(const DeviceInfo& device, const std::string& variant,
                      const synthetic::XpcsDataset& d, const BenchOptions& o, double macs,
                      const Result* reference) {
    BenchRow row;
    row.algorithm = "xpcs", row.variant = variant, row.size = o.size;
    row.device = device.spec + " (" + device.name + ")";
    if (const Support s = VariantRegistry::instance().find("xpcs", variant).supports(device); !s.ok) {
        row.note = s.reason;
        return row;
    }
    std::vector<double> ms;
    TimingStats labels;
    Result last;
    Params params;
    params.tuning = o.tuning;
    for (int run = 0; run <= o.repeat; ++run) {
        last = correlate(device, variant, d.frames, d.labels, params);
        if (run == 0) continue; // warm-up: program builds, first touches
        ms.push_back(last.kernelMs);
        labels.merge(last.timings);
    }
    row.ran = true;
    row.minMs = *std::min_element(ms.begin(), ms.end());
    row.medianMs = median(ms);
    row.unit = "GFLOP/s";
    row.throughput = 2.0 * macs / (row.medianMs * 1e-3) * 1e-9;
    for (const TimingRecord& r : labels.records()) row.labelsMedianMs[r.label] = r.medianMs;
    if (reference) row.maxDeviation = deviation(last, *reference);
    return row;
}

std::vector<BenchRow> benchXpcs(const std::vector<DeviceInfo>& devices, const BenchOptions& o) {
    const synthetic::XpcsDataset d = synthetic::generateXpcs(benchDataset(o.size));
    const Bins bins = makeBins(d.labels);
    const double frames = static_cast<double>(d.frames.frameCount());
    double macs = 0; // multiply-adds of the lower-triangle Gram matrices
    for (std::int64_t n : bins.pixelCounts) macs += static_cast<double>(n) * frames * (frames + 1) / 2;
    std::optional<Result> reference;
    std::string checked = "not checked";
    if (o.check) {
        auto [ref, subset] = referenceOn(d, o.size);
        checked = "checked on " + std::to_string(ref.binCount()) + " of " + std::to_string(bins.count()) + " bins";
        reference = std::move(ref);
    }
    std::vector<BenchRow> rows;
    for (const DeviceInfo& device : devices)
        for (const VariantEntry& v : VariantRegistry::instance().variants("xpcs")) {
            const std::string& id = v.info.id;
            if (!o.variants.empty() && std::find(o.variants.begin(), o.variants.end(), id) == o.variants.end())
                continue;
            rows.push_back(benchVariant(device, id, d, o, macs, reference ? &*reference : nullptr));
            if (rows.back().ran) rows.back().note = checked;
        }
    return rows;
}

} // namespace

void registerXpcsBench(BenchRegistry& registry) { registry.add("xpcs", benchXpcs); }

} // namespace clscope::xpcs
