// Whether an XPCS g2 fit can be trusted (core: clscope-cli correlate --fit writes it as
// /xpcs/fit/quality, the GUI's Fits tab shows it). The thresholds are stated here and in
// DESIGN.md §5 xpcs.
#pragma once
#include "core/xpcs/fit.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clscope::xpcs {

// χ²_red: ok in [0.1, 2], poor ≤ 10, bad above (or not finite); below 0.1 "χ²_red too small":
// the model follows the noise or the errors are overestimated (g2_err of neighbouring lags is
// correlated), so the parameters' errors are not to be trusted (Γ still is plotted vs q).
inline constexpr double chi2RedOk = 2.0, chi2RedPoor = 10.0, chi2RedLow = 0.1;
// A free baseline farther than this from 1 (and than 3 of its errors): g2 of normalised
// intensities decays to 1; such a baseline trades off against β and Γ.
inline constexpr double baselineTolerance = 0.2;
// Γ more than this factor (and 3 of its errors) away from the bins' Γ(q) power law: the straight
// line through log Γ against log q of the bins whose Γ error is below Γ (powerLawLine: it exists
// even where the weighted fit of /xpcs/fit/gamma_exponent does not converge, and one bin far off
// moves it less).
inline constexpr double rateLawFactor = 2.0;

// The grade of a fit from χ²_red and the parameters' bounds: "at bound" when a free parameter
// sits at one of its bounds; "failed" when it did not converge.
enum class FitGrade { Ok, Poor, Bad, AtBound, Failed, Overfit };
FitGrade fitGrade(const FitResult& fit, const std::vector<FitParameter>& params);
std::string gradeName(FitGrade grade); // "ok", "poor", "bad", "at bound", "failed", ...
std::string fitGradeLegend();

// Why the fit is not to be trusted, "; "-separated; empty when it is. Flags: not converged
// (with the fitter's reason), a free parameter at one of its bounds, a free parameter whose
// error is larger than its magnitude or not finite. (χ²_red: fitGrade.) params and names are
// in fit order.
std::string fitConcerns(const FitResult& fit, const std::vector<FitParameter>& params,
                        const std::vector<std::string>& names);

// The bits of /xpcs/fit/quality (0: ok).
enum FitFlag : std::uint32_t {
    FlagNotConverged = 1,
    FlagAtBound = 2,
    FlagChi2Bad = 4,   // χ²_red > chi2RedPoor or not finite
    FlagChi2Poor = 8,  // chi2RedOk < χ²_red ≤ chi2RedPoor
    FlagChi2Low = 16,  // χ²_red < chi2RedLow
    FlagBaseline = 32, // |baseline − 1| > baselineTolerance and > 3 σ
    FlagRateLaw = 64,  // Γ off the Γ(q) power law by > rateLawFactor and > 3 σ
    FlagError = 128,   // a free parameter's error larger than its value, or not finite
    FlagSingular = 256 // the covariance is singular (FitResult::singular)
};
std::string fitFlagsLegend(); // what each bit means, with the thresholds

// One bin's g2 fit (the G2Param parameters) judged: its grade, flags and concerns.
struct FitQuality {
    FitGrade grade = FitGrade::Failed;
    std::uint32_t flags = FlagNotConverged;
    std::string concerns; // empty when trusted apart from the grade
};
FitQuality assessG2Fit(const FitResult& fit, const G2Model& model);
// Adds FlagRateLaw (and its concern) when Γ ± its error is inconsistent with law = A q^n.
void assessRateLaw(FitQuality& quality, double gamma, double gammaErr, double q,
                   const PowerLawModel& law);

} // namespace clscope::xpcs
