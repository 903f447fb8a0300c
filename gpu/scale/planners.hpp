// Each algorithm's pass planner (gpu/scale/passes.hpp), one file each.
#pragma once
#include "gpu/scale/passes.hpp"

namespace clscope {

std::unique_ptr<PassPlan> planXpcsPasses(const InputSources& sources, const ParamSet& params,
                                         std::uint64_t budget);
std::unique_ptr<PassPlan> planSpotsPasses(const InputSources& sources, const ParamSet& params,
                                          std::uint64_t budget);
std::unique_ptr<PassPlan> planClusterPasses(const InputSources& sources, const ParamSet& params,
                                            std::uint64_t budget);
std::unique_ptr<PassPlan> planRbfPasses(const InputSources& sources, const ParamSet& params,
                                        std::uint64_t budget);

// UsageError "WHAT: needs N, more than the memory budget M allows; raise --memory-budget".
[[noreturn]] void overBudget(const std::string& what, std::uint64_t needed, std::uint64_t budget);

} // namespace clscope
