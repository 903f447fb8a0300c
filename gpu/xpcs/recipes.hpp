// The kernel programs of xpcs declared as recipes (gpu/recipe.hpp): sources, every macro the
// xpcs*.cl files read as a tunable, and the launch rules of their kernels. The values passed
// come from the host (data type, layout, Gram type: fromInput), the tuning table
// (gpu/xpcs/tuning.hpp) and the run's tuning and program overrides.
#pragma once
#include "gpu/recipe.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope::xpcs {

// Names of the programs.
namespace programs {
inline const std::string seed = "xpcs_seed";         // naive and ordered, reorder, frame sums
inline const std::string gemm = "xpcs_gemm";         // gemm, reorder, frame sums
inline const std::string mma = "xpcs_mma";           // mma.sync / wgmma Gram, prepare, fused lags
inline const std::string lagSums = "xpcs_lag_sums";  // g2 and g2_err from the Gram diagonals
inline const std::string multitau = "xpcs_multitau"; // the streamed multi-tau rings and sums
inline const std::string sparse = "xpcs_sparse";     // multi-tau on sparse frames' entries
inline const std::string sparsePairs = "xpcs_sparse_pairs"; // dense lags on sparse frames' entries
} // namespace programs

// Every xpcs program (xpcs::Algorithm::recipes()).
const std::vector<ProgramRecipe>& recipes();
// The declaration of one of them (std::out_of_range for another name).
const ProgramRecipe& declared(const std::string& name);

// Integer tunable values as the host's tuning map (values that are not integers left out).
std::map<std::string, int> integers(const TunableValues& values);

} // namespace clscope::xpcs
