// The cluster kernel programs declared as recipes (gpu/recipe.hpp): cluster_group (count, scan,
// scatter by module), cluster_sort, cluster_cmssw, cluster_unionfind and cluster_finish, with
// every macro their .cl files read, the launch rule of each kernel and the host's values.
#pragma once
#include "gpu/recipe.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace clscope::cluster {

// Neighbour-list slots per digi (CMSSW_MAX_NEIGHBOURS): the host sizes the cmssw scratch and
// its local-memory estimate from it.
constexpr std::size_t maxNeighbours = 5;

// Names of the programs (ProgramRecipe::name, VariantInfo::programs).
namespace programs {
inline const std::string group = "cluster_group";
inline const std::string sort = "cluster_sort";
inline const std::string cmssw = "cluster_cmssw";
inline const std::string unionfind = "cluster_unionfind";
inline const std::string finish = "cluster_finish";
} // namespace programs

// Every program of the cluster variants.
std::vector<ProgramRecipe> recipes();
// The recipe of the program that holds `kernel` (e.g. cluster_count: cluster_group).
ProgramRecipe recipeOfKernel(const std::string& kernel);

// The host's values for a run's programs: the format's constants (invalid module id,
// neighbour slots), then the tuning over them (the device's defaults and the run's overrides).
TunableValues hostValues(const std::map<std::string, int>& tuning);

} // namespace clscope::cluster
