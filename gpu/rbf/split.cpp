// rbf over several devices: targets are independent, so a run splits into contiguous target
// ranges (as explicit points: plane targets become their coordinates, so separable, which
// needs the grid, runs whole on one device: unsplittable()) and joins by concatenation in
// target order.
#include "gpu/rbf/algorithm.hpp"
#include "gpu/rbf/rbf_gpu.hpp"

#include <algorithm>
#include <limits>

namespace clscope::rbf {

std::string Algorithm::unsplittable(const std::string& variant) const {
    return variant == "separable" ? "separable needs the whole plane grid" : "";
}

// Target ranges share out the targets, the outputs and the kernels (every part reads every
// source): `tiled-fast` ran 10^11 Gaussian pairs (1.2e12 of workWith's operations) in 48 ms on
// an H100, 2.5e13 a second.
SplitWork Algorithm::splitWorkWith(const Input& in, const Params& p) const {
    const RunWork w = workWith(in, p);
    return {w.bytes - sourceBytes(in.problem), w.operations / 2.5e13 * 1e3};
}

std::vector<Algorithm::Part> Algorithm::splitWith(const Input& in, const ParamSet& params,
                                                  std::size_t parts) const {
    const std::size_t planes = static_cast<std::size_t>(params.integer("planes"));
    Problem storage;
    const Problem& problem = withPlanes(in.problem, planes, storage);
    const std::size_t m = problem.targetCount(),
                      count = std::max<std::size_t>(1, std::min(parts, m));
    std::vector<Part> out;
    for (std::size_t k = 0; k < count; ++k) {
        std::vector<std::size_t> range;
        for (std::size_t i = k * m / count; i < (k + 1) * m / count; ++i)
            range.push_back(i);
        auto part = makeInput(subsetTargets(problem, range), in.provenance);
        part->origin = in.origin ? *in.origin : centreOf(problem);
        if (!in.targetIndex.empty())
            for (std::size_t i : range)
                part->targetIndex.push_back(in.targetIndex[i]);
        ParamSet p = params;
        p.set("planes", 0); // the part's targets are explicit points
        out.push_back({part, p});
    }
    return out;
}

std::shared_ptr<clscope::AlgorithmResult>
Algorithm::joinWith(const std::vector<std::shared_ptr<RunResult>>& parts) const {
    auto out = std::make_shared<RunResult>();
    Result& joined = out->result;
    joined.sampleDeviation = 0;
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

} // namespace clscope::rbf
