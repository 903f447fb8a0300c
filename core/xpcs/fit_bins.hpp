// Fits of a whole xpcs result (clscope-cli correlate --fit): g2 of every bin, then Γ against
// q as a power law (or with the exponent fixed at 2, the diffusion coefficient), written under
// /xpcs/fit (DESIGN.md §3).
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/fit.hpp"
#include "core/xpcs/xpcs.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clscope::xpcs {

struct FitOptions {
    bool stretched = false; // alpha free in (0, 2]; else fixed at 1 ("single")
    bool diffusion = false; // power-law exponent fixed at 2: prefactor = D
    double tauMin = 0.0, tauMax = std::numeric_limits<double>::infinity();
};

struct BinFits {
    // One value per bin (NaN where the fit did not converge); rate Γ in 1/tau units.
    std::vector<double> baseline, beta, gamma, alpha;
    std::vector<double> baselineErr, betaErr, gammaErr, alphaErr;
    std::vector<double> chiSquaredReduced;
    std::vector<double> q;             // 1/Å per bin (NaN unknown); empty without q
    std::optional<FitResult> powerLaw; // Γ = A q^n (n = 2 fixed with diffusion)
    bool diffusion = false;
};

// Start values from the data: baseline from the last fifth, beta from the first lag, rate
// from where g2 - baseline falls to half.
G2Model startingModel(const std::vector<double>& tau, const double* g2, bool stretched);

// Fit every bin of r, weighted by its g2_err; q (1/Å, one per bin) may be empty.
BinFits fitBins(const Result& r, const FitOptions& options, const std::vector<double>& q);

// /xpcs/fit/{baseline,beta,gamma,alpha}(_err), chi2_red, /xpcs/q, gamma_prefactor,
// gamma_exponent (+ _err) and diffusion (+ _err).
void writeFits(H5Writer& out, const BinFits& fits, const std::string& group, bool tauInSeconds);

} // namespace clscope::xpcs
