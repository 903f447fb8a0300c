// Fits of a whole xpcs result (clscope-cli correlate --fit): g2 of every bin, then Γ against
// q with a τ(q) law (rate_law.hpp: power, diffusion or ballistic, over a q range), written under
// /xpcs/fit (DESIGN.md §3).
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/fit.hpp"
#include "core/xpcs/fit_quality.hpp"
#include "core/xpcs/rate_law.hpp"
#include "core/xpcs/xpcs.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clscope::xpcs {

// The fit settings (declared once as the xpcs parameters fit, rate_law (diffusion its shorthand),
// rate_q_range, fit_tau_*, fit_baseline_*,
// fit_beta_*, fit_alpha_*: core/xpcs/fit_params.hpp). Baseline, β and α: fixed at `value`, or
// free within [lower, upper], started from the data (startingModel). β₂ (double) has β's
// bounds; Γ₂ is ≥ 0, v free (|v| reported).
struct FitOptions {
    G2Shape shape = G2Shape::Single;  // the model (fit_model.hpp); α free only when stretched
    RateLaw rateLaw = RateLaw::Power; // the τ(q) law fitted to Γ(q) when q is known
    QRange rateRange;                 // the bins whose q is in it enter the law (default: all)
    FitParameter baseline{1.0};
    FitParameter beta{0.2, false, 0.0, 2.0};
    FitParameter alpha{1.0, false, 0.2, 2.0};
    // Lags fitted: tauMin < τ ≤ tauMax (τ units of the result). tauMax NaN ("auto"): up to the
    // τ of lag (n − 1)/3, the first third of the n lags, beyond which few frame pairs and
    // correlated errors make g2 noisy (the brownian demo gives D within 5 % and n within 0.1).
    double tauMin = 0.0, tauMax = std::numeric_limits<double>::quiet_NaN();
    // The model for one bin: start values from its g2 where not fixed, the bounds, the τ range.
    G2Model model(const std::vector<double>& tau, const double* g2, double q = 0.0) const;
};

struct BinFits {
    // One value per bin (NaN where the fit did not converge); rate Γ in 1/tau units, velocity
    // in 1/(q·tau) units (Å per tau unit). The columns of the parameters the shape has not
    // hold their fixed values (α = 1, β₂ = 0, v = 0).
    std::vector<double> baseline, beta, gamma, alpha, beta2, gamma2, velocity;
    std::vector<double> baselineErr, betaErr, gammaErr, alphaErr, beta2Err, gamma2Err, velocityErr;
    std::vector<double> chiSquaredReduced, aic, bic;
    G2Shape shape = G2Shape::Single;
    std::vector<FitResult> results;    // per bin as fitted (the message when not converged)
    std::vector<FitQuality> quality;   // per bin (fit_quality.hpp), FlagRateLaw from powerLaw
    std::vector<double> q;             // 1/Å per bin (NaN unknown); empty without q
    std::optional<RateLawFit> rateLaw; // Γ = A q^n (n fixed at 2: diffusion, 1: ballistic)
};

// Start values from the data: baseline from the last fifth, beta from the first lag, rate
// from where g2 - baseline falls to half (Γ_h); double: Γ = 3Γ_h, Γ₂ = Γ_h/3, β and β₂ half
// each; flow (q > 0): Γ = Γ_h/2, v = 2Γ_h/q.
G2Model startingModel(const std::vector<double>& tau, const double* g2, G2Shape shape,
                      double q = 0.0);

// UsageError naming what is missing when the model needs q (flow) and qKnown is false: checked
// before a run (clscope-cli correlate) and by fitBins.
void requireFitInput(const FitOptions& options, bool qKnown);

// Fit every bin of r, weighted by its g2_err; q (1/Å, one per bin) may be empty — except for
// flow, where that is a UsageError naming what is missing (a bin whose q is not positive
// fails alone, with the reason).
BinFits fitBins(const Result& r, const FitOptions& options, const std::vector<double>& q);

// /xpcs/fit/{baseline,beta,gamma,alpha}(_err), beta2, gamma2 (+ _err; double), velocity (+ _err;
// flow), chi2_red, aic, bic, quality (FitFlag bits), /xpcs/q; with q: rate_law_bins (B, uint8:
// 1 where the bin entered the law), gamma_prefactor, gamma_exponent (+ _err), diffusion (+ _err;
// law diffusion) or law_velocity (+ _err; law ballistic); attributes `model`, `rate_law`,
// `rate_q_min`/`rate_q_max` (1/Å, the bounds given) on /xpcs/fit.
void writeFits(H5Writer& out, const BinFits& fits, const std::string& group, bool tauInSeconds);
// GROUP/q (B, 1/Å, NaN where a bin has none): written with the fits, or alone when q is known.
void writeBinQ(H5Writer& out, const std::vector<double>& q, const std::string& group);

} // namespace clscope::xpcs
