// cluster on OpenCL devices: variants cmssw and unionfind next to the CPU reference `cpu`.
// Internal to gpu/cluster: runs go through runAlgorithm() (gpu/algorithm.hpp), whose
// Algorithm::runWith runs the variant object it looks up in variantSet().
#pragma once
#include "core/cluster/cluster.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/variant/variant_set.hpp"

#include <map>
#include <string>

namespace clscope::cluster {

// What one cluster run gives its variant.
struct Job {
    DeviceInfo device;
    const Digis& digis;
    Params params; // the run's tuning in params.tuning
    Progress progress;
    ProgramOverrides programs; // its programs (gpu/cluster/recipes.hpp) are built with these
};

// The variants, declared once (variants.cpp): cmssw, unionfind and cpu with their device
// checks. Each run throws InputError for bad digis, UsageError for bad tuning, DeviceError for
// device trouble, Cancelled when cancelled.
const VariantSet<Job, Result>& variantSet();

// The OpenCL runs (gpu/cluster/runner.cpp): the tuning a device gets by default (values of the
// programs' tunables), and one run of the variant `id`, whose roots are found as `roots` says.
enum class Roots { Cmssw, UnionFind };
std::map<std::string, int> defaultTuning(const DeviceInfo& device);
// Work-groups of the per-module kernels for `digis` digis: CLUSTER_GROUPS (`tuned`) where it is
// not 0; at 0 (a GPU's default) one for every 32 digis (about a module's share), from 2,048 to
// 16,384. Only the launch's size: the kernels stride over the modules.
std::size_t moduleGroups(int tuned, std::size_t digis);
Result clusterOnDevice(const Job& job, const std::string& id, Roots roots);

} // namespace clscope::cluster
