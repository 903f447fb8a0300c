// rbf over several devices: targets are independent, so a run splits into contiguous target
// ranges (as explicit points: plane targets become their coordinates, so separable, which
// needs the grid, runs whole on one device: unsplittable()) and joins by concatenation in
// target order.
#include "gpu/facets/split_facet.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/rbf/facets.hpp"
#include "gpu/rbf/rbf_gpu.hpp"

#include <algorithm>
#include <limits>

namespace clscope::rbf {

namespace {

class TargetRanges : public TypedSplit<Algorithm> {
  public:
    std::string unsplittable(const std::string& variant) const override {
        return variant == "separable" ? "separable needs the whole plane grid" : "";
    }

  protected:
    // Target ranges share out the targets, the outputs and the kernels (every part reads
    // every source): `tiled-fast` ran 10^11 Gaussian pairs (1.2e12 of runWork's operations) in
    // 48 ms on an H100, 2.5e13 a second.
    SplitWork splitWorkWith(const Run& run) const override {
        const RunWork w = runWork(run.input(), run.params());
        return {w.bytes - sourceBytes(run.input().problem), w.operations / 2.5e13 * 1e3};
    }
    std::vector<Algorithm::Part> splitWith(const Run& run, std::size_t parts) const override;
    std::shared_ptr<clscope::AlgorithmResult>
    joinWith(const std::vector<std::shared_ptr<RbfResult>>& parts) const override;
};

std::vector<Algorithm::Part> TargetRanges::splitWith(const Run& run, std::size_t parts) const {
    const RbfInput& in = run.input();
    Problem storage;
    const Problem& problem = withPlanes(in.problem, run.params().planes, storage);
    const std::size_t m = problem.targetCount(),
                      count = std::max<std::size_t>(1, std::min(parts, m));
    // The run's own check against double shared out too: each part checks its share of the
    // targets the whole run would (a part's check runs on the host beside its kernels; 64
    // targets each, four parts' checks took as long as the one run's).
    const auto sample = static_cast<std::size_t>(run.values().integer("sample_targets"));
    std::vector<Algorithm::Part> out;
    for (std::size_t k = 0; k < count; ++k) {
        std::vector<std::size_t> range;
        for (std::size_t i = k * m / count; i < (k + 1) * m / count; ++i)
            range.push_back(i);
        auto part = makeInput(subsetTargets(problem, range), in.provenance);
        part->origin = in.origin ? *in.origin : centreOf(problem);
        if (!in.targetIndex.empty())
            for (std::size_t i : range)
                part->targetIndex.push_back(in.targetIndex[i]);
        ParamSet p = run.values();
        p.set("planes", 0); // the part's targets are explicit points
        if (sample) p.set("sample_targets", static_cast<long long>((sample + count - 1) / count));
        out.push_back({part, p});
    }
    return out;
}

std::shared_ptr<clscope::AlgorithmResult>
TargetRanges::joinWith(const std::vector<std::shared_ptr<RbfResult>>& parts) const {
    auto out = std::make_shared<RbfResult>();
    Result& joined = out->result;
    joined.sampleDeviation = 0;
    std::size_t values = 0, indices = 0; // room for every part's at once, not grown part by part
    for (const auto& p : parts)
        values += p->result.potential.size(), indices += p->result.targetIndex.size();
    joined.potential.reserve(values), joined.targetIndex.reserve(indices);
    for (const auto& p : parts) {
        const Result& r = p->result;
        joined.complex = r.complex, joined.kernel = r.kernel;
        joined.potential.insert(joined.potential.end(), r.potential.begin(), r.potential.end());
        joined.targetIndex.insert(joined.targetIndex.end(), r.targetIndex.begin(),
                                  r.targetIndex.end());
        joined.kernelMs = std::max(joined.kernelMs, r.kernelMs);
        if (r.sampleCount) // the worst part's sample check
            joined.sampleDeviation = std::max(joined.sampleDeviation, r.sampleDeviation);
        joined.sampleCount += r.sampleCount;
    }
    if (!joined.sampleCount) joined.sampleDeviation = std::numeric_limits<double>::quiet_NaN();
    return out;
}

} // namespace

std::shared_ptr<const Facet> splitFacet() {
    return std::make_shared<TargetRanges>();
}

} // namespace clscope::rbf
