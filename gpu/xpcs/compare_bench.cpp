// xpcs: how two results compare and the synthetic inputs of clscope-cli bench xpcs.
#include "core/errors.hpp"
#include "core/xpcs/synthetic.hpp"
#include "gpu/facets/bench_facet.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/bench_bins.hpp"
#include "gpu/xpcs/facets.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/multitau_rings.hpp"
#include "gpu/xpcs/tuning.hpp"

#include <algorithm>
#include <map>

namespace clscope::xpcs {

namespace {

// Integer inputs are summed exactly; what is left is the rounding of the final divisions.
constexpr double tolerance = 1e-9;

// g2 and g2_err of the reference's bins, side by side with the result's.
struct Paired {
    std::vector<double> got, ref;
    std::vector<std::string> where;
    std::size_t missing = 0;
};

Paired pairByLabel(const Result& got, const Result& ref) {
    Paired p;
    for (std::size_t rb = 0; rb < ref.binCount(); ++rb) {
        const auto it = std::find(got.labels.begin(), got.labels.end(), ref.labels[rb]);
        if (it == got.labels.end() || got.frames != ref.frames) {
            ++p.missing;
            continue;
        }
        const std::size_t gb = static_cast<std::size_t>(it - got.labels.begin());
        for (std::size_t t = 0; t < ref.frames; ++t) {
            const std::string at =
                "bin " + std::to_string(ref.labels[rb]) + ", lag " + std::to_string(t);
            p.got.push_back(got.g2At(gb, t)), p.ref.push_back(ref.g2At(rb, t)),
                p.where.push_back(at + " (g2)");
            p.got.push_back(got.g2ErrAt(gb, t)), p.ref.push_back(ref.g2ErrAt(rb, t));
            p.where.push_back(at + " (g2_err)");
        }
    }
    return p;
}

synthetic::XpcsParams benchDataset(const std::string& size) {
    synthetic::XpcsParams p; // seed: 500 x 201 x 241, rings of 10 pixels
    p.model = "seed";
    if (size == "large") p.frames = 2000, p.height = 511, p.width = 511, p.ringWidth = 8;
    return p;
}

// Multiply-adds of the lower-triangle Gram matrices of every bin over `frames` frames.
double gramMacs(const Bins& bins, double frames) {
    double macs = 0;
    for (std::int64_t n : bins.pixelCounts)
        macs += static_cast<double>(n) * frames * (frames + 1) / 2;
    return macs;
}

// Multi-tau (DESIGN.md §5): the frames read once and the labels once; per labelled pixel, a
// multiply-add for each row t of level k and each lag m of the level with t >= m, and an add
// for each value of the level above (level k has floor(T / 2^k) rows).
RunWork multitauWork(const XpcsInput& input, const Params& params) {
    // The blocks when there are (a file read block by block; the bench's series cycling
    // through its pool of frames), else the frames in memory.
    const std::size_t frames = input.blocks   ? input.blocks->frameCount()
                               : input.frames ? input.frames->frameCount()
                                              : 0;
    if (!frames) return {};
    const double bytes = input.blocks
                             ? double(frames * input.blocks->height() * input.blocks->width() *
                                      dtypeSize(input.blocks->dtype()))
                             : double(input.frames->byteSize());
    double pixels = 0;
    for (std::int32_t label : input.labels.labels)
        pixels += label > 0 ? 1 : 0;
    double perPixel = 0;
    for (int k = 0; (frames >> k) > 0; ++k) {
        const std::size_t rows = frames >> k;
        const int first = multitauFirstLag(k, params.channels);
        for (int j = 0; j < multitauLagCount(k, params.channels); ++j) {
            const std::size_t m = static_cast<std::size_t>(first + j);
            if (m < rows) perPixel += 2.0 * double(rows - m);
        }
        perPixel += double(rows >> 1); // the next level's values
    }
    RunWork w;
    w.bytes = bytes + 4.0 * double(input.labels.labels.size());
    w.operations = perPixel * pixels;
    return w;
}

} // namespace

RunWork runWork(const XpcsInput& input, const Params& params) {
    if (params.multitau) return multitauWork(input, params);
    if (!input.frames) return {};
    const Bins bins = makeBins(input.labels);
    const double frames = static_cast<double>(input.frames->frameCount());
    RunWork w;
    w.bytes = static_cast<double>(input.frames->byteSize()) +
              8.0 * static_cast<double>(bins.count()) * frames;
    w.operations = 2.0 * gramMacs(bins, frames);
    return w;
}

Deviation Algorithm::compareWith(const XpcsResult& result, const XpcsResult& reference) const {
    const Result& got = result.result;
    const Result& ref = reference.result;
    const Paired p = pairByLabel(got, ref);
    Deviation d = compareValues("|Δ| / |ref| of g2 and g2_err", p.got.data(), p.ref.data(),
                                p.got.size(), tolerance, true);
    if (d.firstIndex >= 0) d.firstWhere = p.where[static_cast<std::size_t>(d.firstIndex)];
    d.note = "checked on " + std::to_string(ref.binCount() - p.missing) + " of " +
             std::to_string(got.binCount()) + " bins";
    if (p.missing) {
        d.pass = false;
        d.note += "; " + std::to_string(p.missing) + " reference bins missing or of another length";
    }
    return d;
}

namespace {

// seed and large (every lag, large's reference on three bins) and multitau.
class XpcsBench : public BenchFacet {
  public:
    std::vector<std::string> sizes() const override {
        return {"seed",       "large",         "multitau",    "sparse",
                "sparse0.2",  "sparse0.3",     "sparse0.5",   "sparse1",
                "sparse2",    "sparse3",       "sparse5",     "sparse10",
                "sparselags", "sparselags0.3", "sparselags1", "sparselags3"};
    }
    BenchCase benchCase(const clscope::Algorithm& algorithm,
                        const std::string& size) const override;
};

BenchCase XpcsBench::benchCase(const clscope::Algorithm& algorithm, const std::string& size) const {
    if (size == "multitau") return multitauBenchCase(algorithm.defaultParams());
    const std::map<std::string, double> lags{{"sparselags", 0.001},
                                             {"sparselags0.3", 0.003},
                                             {"sparselags1", 0.01},
                                             {"sparselags3", 0.03}};
    if (const auto it = lags.find(size); it != lags.end())
        return sparseLagsBenchCase(algorithm.defaultParams(), it->second);
    const std::map<std::string, double> occupancy{
        {"sparse", 0.001},    {"sparse0.2", 0.002}, {"sparse0.3", 0.003},
        {"sparse0.5", 0.005}, {"sparse1", 0.01},    {"sparse2", 0.02},
        {"sparse3", 0.03},    {"sparse5", 0.05},    {"sparse10", 0.1}};
    if (const auto it = occupancy.find(size); it != occupancy.end())
        return sparseBenchCase(algorithm.defaultParams(), it->second);
    if (size != "seed" && size != "large")
        throw UsageError("bench xpcs: --size must be seed, large, multitau, sparse, sparse0.2, "
                         "sparse0.3, sparse0.5, sparse1, sparse2, sparse3, sparse5, sparse10, "
                         "sparselags, sparselags0.3, "
                         "sparselags1 or sparselags3, not '" +
                         size + "'");
    synthetic::XpcsDataset d = synthetic::generateXpcs(benchDataset(size));
    const Bins bins = makeBins(d.labels);
    const double frames = static_cast<double>(d.frames.frameCount());
    const double macs = gramMacs(bins, frames);
    BenchCase c;
    c.description = std::to_string(d.frames.frameCount()) + " x " +
                    std::to_string(d.frames.height()) + "x" + std::to_string(d.frames.width()) +
                    " " + dtypeName(d.frames.dtype()) + ", " + std::to_string(bins.count()) +
                    " bins";
    c.params = algorithm.defaultParams();
    c.params.set("keep_sums", false); // the variants' rates: no host pass for /xpcs/sums
    c.work = 2.0 * macs, c.unit = "GFLOP/s", c.unitScale = 1e9;
    c.uploadBytes = static_cast<double>(d.frames.byteSize());
    const nlohmann::json provenance{{"file", "synthetic xpcs " + size}};
    if (size == "large") c.referenceInput = makeInput(d.frames, threeBins(d.labels), provenance);
    c.input = makeInput(std::move(d.frames), std::move(d.labels), provenance);
    return c;
}

} // namespace

std::shared_ptr<const Facet> benchFacet() {
    return std::make_shared<XpcsBench>();
}

} // namespace clscope::xpcs
