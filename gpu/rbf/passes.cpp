// rbf within a memory budget: passes over contiguous target ranges (each target's sum does not
// depend on the others), read from disk a range at a time (plane targets are computed, never
// held); the sources and weights are held whole in every pass. Streaming the sources too would
// change the order of each target's sum, so fp32 results would no longer equal the in-memory
// run's: a source set larger than the budget is refused with what it needs.
#include "gpu/scale/passes.hpp"
#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "core/rbf/rbf_io.hpp"
#include "gpu/facets/passes_facet.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/rbf/facets.hpp"
#include "gpu/rbf/rbf_gpu.hpp"

#include <algorithm>
#include <cmath>

namespace clscope {

namespace {

// Host bytes per target in a pass: position (24), potential (16), the slab as stored (24).
constexpr std::uint64_t bytesPerTarget = 64;
// Per source: position (24) and weight (16).
constexpr std::uint64_t bytesPerSource = 40;

class RbfPlan : public PassPlan {
  public:
    std::string file, targetsPath;
    rbf::Problem sources; // sources and weights; plane targets when planes > 0
    std::size_t targets = 0, perPass = 1;
    std::array<double, 3> origin{0, 0, 0};
    ParamSet params;

    std::size_t count() const override { return (targets + perPass - 1) / perPass; }

    // Explicit targets [first, first + n) from the file as doubles.
    std::vector<double> targetRange(std::size_t first, std::size_t n) const {
        const Array slab = H5Reader(file).readSlab(targetsPath, first, n);
        std::vector<double> xyz(slab.size());
        for (std::size_t i = 0; i < slab.size(); ++i)
            xyz[i] = slab.valueAt(i);
        return xyz;
    }

    // The whole problem's origin (rbf::centreOf): the sources and the two corners of the
    // targets' bounding box, found a pass's worth of targets at a time, have the same box.
    std::array<double, 3> wholeOrigin() const {
        if (sources.targets.planes) return rbf::centreOf(sources);
        rbf::Problem corners = sources;
        std::vector<double> lo(3, INFINITY), hi(3, -INFINITY);
        for (std::size_t first = 0; first < targets; first += perPass) {
            const std::vector<double> xyz = targetRange(first, std::min(perPass, targets - first));
            for (std::size_t i = 0; i < xyz.size(); ++i)
                lo[i % 3] = std::min(lo[i % 3], xyz[i]), hi[i % 3] = std::max(hi[i % 3], xyz[i]);
        }
        corners.targets.points = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
        return rbf::centreOf(corners);
    }

    Algorithm::Part read(std::size_t pass) const override {
        const std::size_t first = pass * perPass, n = std::min(perPass, targets - first);
        rbf::Problem part;
        if (sources.targets.planes) {
            std::vector<std::size_t> range(n);
            for (std::size_t i = 0; i < n; ++i)
                range[i] = first + i;
            part = rbf::subsetTargets(sources, range);
        } else {
            part.sources = sources.sources, part.weights = sources.weights;
            part.complexWeights = sources.complexWeights;
            part.targets.points = targetRange(first, n);
            part.check();
        }
        auto input = rbf::makeInput(std::move(part), provenance);
        input->origin = origin;
        return {input, params};
    }
};

} // namespace

} // namespace clscope

namespace clscope::rbf {

namespace {

// Contiguous target ranges, the sources and weights held whole in every pass.
std::unique_ptr<PassPlan> planTargetPasses(const InputSources& sources, const Algorithm::Run& run,
                                           std::uint64_t budget) {
    const InputRole particles = run.algorithm().role("particles");
    const DataLocation where = sources.locate(particles);
    const H5Reader reader(where.file);
    const std::size_t planes = run.params().planes;
    auto plan = std::make_unique<RbfPlan>();
    // Sources and weights only: one plane of one point stands in for targets read later.
    plan->sources = readProblem(reader, where.path, planes ? planes : 1);
    plan->targetsPath = where.path + "/targets", plan->file = where.file;
    if (planes) {
        plan->targets = plan->sources.targetCount();
    } else {
        plan->sources.targets = {}; // the stand-in plane goes
        const DatasetInfo di = reader.info(plan->targetsPath);
        if (di.shape.size() != 2 || di.shape[1] != 3 || !di.dtype || dtypeIsInteger(*di.dtype))
            throw InputError(reader.where(plan->targetsPath) +
                             ": expected (N, 3) float32 or float64, found " + di.typeName + " " +
                             shapeString(di.shape));
        plan->targets = di.shape[0];
    }
    const std::uint64_t sourceBytes =
        budgetBytes(plan->sources.sourceCount(), bytesPerSource, "sources");
    const std::uint64_t whole = sourceBytes + budgetBytes(plan->targets, bytesPerTarget, "targets");
    if (whole <= budget || plan->targets == 0) return nullptr;
    if (sourceBytes > budget / 2)
        overBudget("the " + std::to_string(plan->sources.sourceCount()) +
                       " sources and weights (held whole in every pass)",
                   sourceBytes, budget);
    plan->perPass = std::max<std::size_t>(1, (budget - sourceBytes) / bytesPerTarget);
    plan->provenance = inputProvenance(sources, {particles});
    plan->params = run.values();
    plan->params.set("planes", 0); // each pass's targets are explicit points
    plan->origin = plan->wholeOrigin();
    return plan;
}

} // namespace

std::shared_ptr<const Facet> passesFacet() {
    return std::make_shared<PassesOf<Algorithm>>(&planTargetPasses);
}

} // namespace clscope::rbf
