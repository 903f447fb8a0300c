// The xpcs fit settings declared once as parameters (ParamSpecs): each is a clscope-cli
// correlate option, a field of the GUI's Fit box, a key of the `parameters` JSON of outputs,
// exports and sessions. Defaults (one for the CLI and the GUI): no fit; single exponential
// when asked; τ max auto (the first third of the lags); baseline free and unbounded, β free in
// [0, 2], α (stretched only) free in [0.2, 2].
#pragma once
#include "core/params.hpp"
#include "core/xpcs/fit_bins.hpp"

#include <optional>
#include <vector>

namespace clscope::xpcs {

// fit, diffusion, fit_tau_min, fit_tau_max (null: auto), and for baseline, beta, alpha:
// fit_X_fixed (null: free), fit_X_min, fit_X_max (null: unbounded).
std::vector<ParamSpec> fitParamSpecs();

// The fit the parameters ask for; none with fit = "none". UsageError naming the parameters
// when a lower bound is not below its upper bound (τ range included).
std::optional<FitOptions> fitOptionsFrom(const ParamSet& params);

// The parameter values of options (fit: the shape's name), every key of fitParamSpecs.
nlohmann::json fitParamValues(const FitOptions& options);

} // namespace clscope::xpcs
