// Runs within a memory budget: an input larger than the budget is cut into passes, each of
// which reads only its own part from disk (how: the algorithm's planPasses); the parts' results
// are joined by the algorithm's own join(), so the output is the one an in-memory run writes.
#pragma once
#include "gpu/algorithm.hpp"

#include <cstdint>
#include <functional>
#include <memory>

namespace clscope {

// How one run is cut into passes; made by the algorithm's Algorithm::planPasses (in its own
// folder, e.g. gpu/A/passes.cpp).
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

struct BudgetedRun {
    std::shared_ptr<AlgorithmResult> result;
    std::size_t passes = 1;
    double readMs = 0; // reading from disk, every pass
    // Where the rest of the wall time went: planning (the plan's own reads included), each
    // pass outside its read and its run() (variant choice, checks, the part let go), the join.
    double planMs = 0, passOtherMs = 0, joinMs = 0;
    std::string note; // a live run through the streaming pipeline: where its frames were decoded
    std::size_t batches = 0; // a run through the streaming pipeline: its batches (else 0)
    // The input when the run read it whole (null when it streamed or ran in passes).
    std::shared_ptr<const AlgorithmInput> input;
    // "streamed in N batches" through the streaming pipeline, else "N passes".
    std::string partsText() const;
};

// The run of `request` (its input is read here from `sources`) on the devices, in as few
// passes as the budget allows; each pass runs through runOnDevices. A live input whose
// algorithm has a stream stage for the devices (Algorithm::streamStage) runs through the
// streaming pipeline instead (gpu/pipeline), in one pass. The result's RunInfo is
// that of one run: kernel and wall times summed over the passes.
BudgetedRun runWithinBudget(const Algorithm& algorithm, RunRequest request,
                            const InputSources& sources, const std::vector<DeviceInfo>& devices,
                            std::uint64_t budgetBytes, const Progress& progress = {});

// Whether a live run of `request` on `devices` goes through the streaming pipeline (one device
// with a stream stage, or several whose stages merge frames): its frames are then kept
// compressed as received (stream::SourceOptions::keepCompressed), decoded on the devices.
bool streamsLive(const Algorithm& algorithm, const RunRequest& request,
                 const std::vector<DeviceInfo>& devices);

// Whether a run of `sources` reads its input whole within the budget less what `variant` holds
// besides it (Algorithm::holdsBeside; "": nothing): every frame stack (the run's frame range of
// it) fits, and the algorithm plans no passes. (A run with a stream stage streams its stacks
// whatever their size; a panel whose views take the input asks this first.)
bool fitsWhole(const Algorithm& algorithm, const InputSources& sources, const ParamSet& params,
               std::uint64_t budgetBytes, const std::string& variant = "");

// Bytes of an element count times a size, UsageError naming `what` when it overflows.
std::uint64_t budgetBytes(std::uint64_t count, std::uint64_t elementBytes, const std::string& what);

// UsageError "WHAT: needs N, more than the memory budget M allows; raise --memory-budget"
// (", or INSTEAD" where given: what to run instead).
[[noreturn]] void overBudget(const std::string& what, std::uint64_t needed, std::uint64_t budget,
                             const std::string& instead = "");

} // namespace clscope
