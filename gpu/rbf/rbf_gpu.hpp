// rbf on OpenCL devices: variants seed, tiled, tiled-fast, fp64 and separable next to the CPU
// reference `cpu`. Runs go through runAlgorithm() (gpu/algorithm.hpp); evaluate() is what
// rbf::Algorithm::run calls.
#pragma once
#include "core/rbf/rbf.hpp"
#include "gpu/device_info.hpp"
#include "gpu/recipe.hpp"
#include "gpu/variant.hpp"

#include <string>
#include <vector>

namespace clscope::rbf {

// The variant ids, the reference last: seed, tiled, tiled-fast, fp64, separable, cpu.
const std::vector<std::string>& variantIds();

// Whether `variant` can run on the device and, when given, on this problem with these
// parameters (seed: source count; separable: Gaussian on plane targets), with the reason.
Support supports(const std::string& variant, const DeviceInfo& device,
                 const Problem* problem = nullptr, const Params* params = nullptr);

// The written tolerance of a variant on max|f - f_ref| / max|f_ref| against float64: 1e-12
// for fp64 (and cpu), 1e-5 for the fp32 variants (DESIGN.md §5), except tiled-fast on
// Helmholtz: 1e-3 (native sin/cos have an absolute error of ~2^-21 on GPUs).
double tolerance(const std::string& variant, Kernel kernel);

// Run a variant (resolved by runAlgorithm), its programs (gpu/rbf/recipes.hpp) built with
// `programs` applied. Throws InputError for bad problems, UsageError for an unknown variant or one
// that cannot run here (with the reason), DeviceError for device trouble, Cancelled when cancelled.
Result evaluate(const DeviceInfo& device, const std::string& variant, const Problem& problem,
                const Params& params = {}, const Progress& progress = {},
                const ProgramOverrides& programs = {});

// The centre of the bounding box of sources and targets (plane targets: the unit cube): where
// the OpenCL variants put the origin unless Params::origin says otherwise.
std::array<double, 3> centreOf(const Problem& problem);

// The default tuning of an OpenCL variant on a device (params.tuning overrides it): values of
// the tunables of its program (gpu/rbf/recipes.hpp).
std::map<std::string, int> defaultTuning(const std::string& variant, const DeviceInfo& device);

// The tuning a run of the variant uses on the device for this problem: defaultTuning, the
// device's and the problem's own rules, then params.tuning.
std::map<std::string, int> runTuning(const std::string& variant, const DeviceInfo& device,
                                     const Problem& problem, const Params& params);

// The registry entries of every variant (device checks only; supports() adds the problem's).
std::vector<VariantEntry> variantEntries();

} // namespace clscope::rbf
