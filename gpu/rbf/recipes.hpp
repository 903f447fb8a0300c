// The rbf kernel programs declared as recipes (gpu/recipe.hpp): rbf_tiled (variants tiled and
// fp64), rbf_tiled_fast (tiled-fast), rbf_seed and rbf_separable, with every macro their .cl
// files read, the launch rule of each kernel, and the host's values for a run.
#pragma once
#include "core/rbf/rbf.hpp"
#include "gpu/recipe.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope::rbf {

// Program names (ProgramRecipe::name, VariantInfo::programs).
inline const std::string tiledProgram = "rbf_tiled";
inline const std::string tiledFastProgram = "rbf_tiled_fast";
inline const std::string seedProgram = "rbf_seed";
inline const std::string separableProgram = "rbf_separable";

// Every program of the rbf variants, in the order above.
std::vector<ProgramRecipe> recipes();
// The recipe of that name (one of the above).
ProgramRecipe recipeOf(const std::string& name);

// The host's values for a run's programs: the input-derived tunables (kernel type, complex
// weights, double; fast maths is the program's own), then the tuning over them (the device's
// defaults and the run's overrides).
TunableValues hostValues(const Problem& problem, const Params& params, bool useDouble,
                         const std::map<std::string, int>& tuning);

} // namespace clscope::rbf
