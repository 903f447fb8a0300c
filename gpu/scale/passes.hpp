// Runs within a memory budget: an input larger than the budget is cut into passes, each of
// which reads only its own part from disk (xpcs: groups of bins, spots: frame ranges, cluster:
// module ranges, rbf: target ranges); the parts' results are joined by the algorithm's own
// join(), so the output is the one an in-memory run writes.
#pragma once
#include "gpu/algorithm.hpp"

#include <cstdint>
#include <functional>
#include <memory>

namespace clscope {

// How one run is cut into passes; made by an algorithm's planner (gpu/scale/*_passes.cpp).
class PassPlan {
  public:
    virtual ~PassPlan() = default;
    virtual std::size_t count() const = 0;
    // The input and parameters of pass i, read from disk.
    virtual Algorithm::Part read(std::size_t pass) const = 0;
    // Called on each pass's result before join() (e.g. cluster: where its digis came from).
    virtual void adopt(AlgorithmResult&, const Algorithm::Part&) const {}
    nlohmann::json provenance = nlohmann::json::object(); // the whole input's
};

// A planner: null when the whole input fits within the budget (read() it whole instead);
// UsageError when a piece that cannot be cut (one xpcs bin, the rbf sources) exceeds it.
using PassPlanner = std::function<std::unique_ptr<PassPlan>(
    const InputSources& sources, const ParamSet& params, std::uint64_t budgetBytes)>;

// The planner of an algorithm id; null when the algorithm reads its input whole.
PassPlanner passPlanner(const std::string& algorithmId);

struct BudgetedRun {
    std::shared_ptr<AlgorithmResult> result;
    std::size_t passes = 1;
    double readMs = 0; // reading from disk, every pass
};

// The run of `request` (its input is read here from `sources`) on the devices, in as few
// passes as the budget allows; each pass runs through runOnDevices. The result's RunInfo is
// that of one run: kernel and wall times summed over the passes.
BudgetedRun runWithinBudget(const Algorithm& algorithm, RunRequest request,
                            const InputSources& sources, const std::vector<DeviceInfo>& devices,
                            std::uint64_t budgetBytes, const Progress& progress = {});

// Bytes of an element count times a size, UsageError naming `what` when it overflows.
std::uint64_t budgetBytes(std::uint64_t count, std::uint64_t elementBytes, const std::string& what);

} // namespace clscope
