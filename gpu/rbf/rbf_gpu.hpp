// rbf on OpenCL devices: variants seed, tiled, tiled-fast, fp64 and separable next to the CPU
// reference `cpu`. Runs go through runAlgorithm() (gpu/algorithm.hpp): rbf::Algorithm::runWith
// runs the variant object it looks up in variantSet().
#pragma once
#include "core/rbf/rbf.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/variant/variant_set.hpp"

#include <string>
#include <vector>

namespace clscope::rbf {

// What one rbf run gives its variant; a support query may lack the problem or the parameters.
struct Job {
    DeviceInfo device;
    const Problem* problem = nullptr;
    const Params* params = nullptr; // the run's tuning in params->tuning
    Progress progress{};
    ProgramOverrides programs{}; // its programs (gpu/rbf/recipes.hpp) are built with these
};

// How a variant computes: its launches (gpu/rbf/runner.hpp; Host: the CPU reference) and
// precision.
enum class Launch { Host, Tiled, TiledFast, Seed, Separable };
struct Flavour {
    Launch launch = Launch::Host;
    bool fp64 = false;   // sums in double (fp64, cpu)
    std::string program; // its program (gpu/rbf/recipes.hpp); "" for the host
    // tiled, tiled-fast and fp64: the direct sum over sources staged in local memory.
    bool direct() const { return launch == Launch::Tiled || launch == Launch::TiledFast; }
    // The written tolerance on max|f - f_ref| / max|f_ref| against float64: 1e-12 in double,
    // 1e-5 in float (DESIGN.md §5), except tiled-fast on Helmholtz: 1e-3 (native sin/cos have
    // an absolute error of ~2^-21 on GPUs).
    double tolerance(Kernel kernel) const;
    // The default tuning on a device (params.tuning overrides it): values of the tunables of
    // its program.
    std::map<std::string, int> defaultTuning(const DeviceInfo& device) const;
};

// The variants, declared once (variants.cpp). A run throws InputError for bad problems,
// DeviceError for device trouble, Cancelled when cancelled.
const VariantSet<Job, Result, Flavour>& variantSet();

// Whether `variant` can run on the device and, when given, on this problem with these
// parameters (seed: source count; separable: Gaussian on plane targets), with the reason.
Support supports(const std::string& variant, const DeviceInfo& device,
                 const Problem* problem = nullptr, const Params* params = nullptr);

// The tolerance of a variant (Flavour::tolerance; an id not declared here: the float one).
double tolerance(const std::string& variant, Kernel kernel);

// The tuning a run of the variant uses on the device for this problem: the flavour's default
// tuning, the device's and the problem's own rules, then params.tuning.
std::map<std::string, int> runTuning(const Flavour& flavour, const DeviceInfo& device,
                                     const Problem& problem, const Params& params);

// The centre of the bounding box of sources and targets (plane targets: the unit cube): where
// the OpenCL variants put the origin unless Params::origin says otherwise.
std::array<double, 3> centreOf(const Problem& problem);

} // namespace clscope::rbf
