// The azint kernel programs declared as recipes (gpu/recipe.hpp): azint_histogram (variant
// histogram: its local-memory form and the global-atomics one), azint_csr and azint_sorted,
// with every macro their .cl files read, the launch rule of each kernel, and the host's values
// for a run.
#pragma once
#include "core/data.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope::azint {

// Program names (ProgramRecipe::name, VariantInfo::programs).
inline const std::string histogramProgram = "azint_histogram";
inline const std::string csrProgram = "azint_csr";
inline const std::string sortedProgram = "azint_sorted";

// Every program of the azint variants, in the order above.
std::vector<ProgramRecipe> recipes();
// The recipe of that name (one of the above).
ProgramRecipe recipeOf(const std::string& name);

// Bytes of local memory a local histogram of `bins` bins takes (two doubles and a count each).
std::size_t localHistogramBytes(std::size_t bins);

// The host's values for a run's programs: the frames' type and sentinel limit, the local
// histogram's bins (the bins where they fit the device's local memory, else 0: global atomics),
// then the tuning over them.
TunableValues hostValues(DType dtype, std::size_t bins, const DeviceInfo& device,
                         const std::map<std::string, int>& tuning);

} // namespace clscope::azint
