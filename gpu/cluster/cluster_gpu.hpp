// cluster on OpenCL devices: variants cmssw and unionfind next to the CPU reference `cpu`.
// Internal to gpu/cluster: runs go through runAlgorithm() (gpu/algorithm.hpp), whose
// ClusterAlgorithm::run calls clusterDigis().
#pragma once
#include "core/cluster/cluster.hpp"
#include "gpu/device_info.hpp"
#include "gpu/recipe.hpp"
#include "gpu/variant.hpp"

#include <map>
#include <string>

namespace clscope::cluster {

// Run variant (cmssw, unionfind or cpu; resolved by runAlgorithm) on a device. Throws InputError
// for bad digis, UsageError for an unknown variant, one the device cannot run or bad tuning,
// DeviceError for device trouble, Cancelled when cancelled.
// Its programs (gpu/cluster/recipes.hpp) are built with `programs` applied.
Result clusterDigis(const DeviceInfo& device, const std::string& variant, const Digis& digis,
                    const Params& params = {}, const Progress& progress = {},
                    const ProgramOverrides& programs = {});

// The variant entries (cpu, cmssw, unionfind) with their device checks.
std::vector<VariantEntry> variantEntries();

// The OpenCL runs (gpu/cluster/runner.cpp): the tuning a device gets by default (values of the
// programs' tunables), and one run.
std::map<std::string, int> defaultTuning(const DeviceInfo& device);
Result runOnDevice(const DeviceInfo& device, const std::string& variant, const Digis& digis,
                   const Params& params, const Progress& progress,
                   const ProgramOverrides& programs);

} // namespace clscope::cluster
