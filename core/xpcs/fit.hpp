// xpcs fits (GSL nonlinear least squares): per bin g2(tau) = baseline + beta exp(-2 (rate
// tau)^alpha), then rate vs q as a power law rate = prefactor q^exponent. Parameters can be fixed
// or bounded (bounds through a smooth transform). Without GSL at build time every fit throws.
#pragma once
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace clscope::xpcs {

struct FitParameter {
    double value = 0.0; // start value, or the value when fixed
    bool fixed = false;
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
};

struct FitResult {
    std::vector<double> values, errors; // all parameters in model order; errors 0 when fixed
    double chiSquaredReduced = std::numeric_limits<double>::quiet_NaN();
    std::size_t points = 0; // data points used
    bool converged = false;
    std::string message; // GSL's reason when not converged
};

// g2 model; parameters in this order: baseline, beta, rate (Γ, 1/tau units), alpha.
struct G2Model {
    FitParameter baseline{1.0}, beta{0.2}, rate{1.0, false, 0.0}, alpha{1.0, true, 0.0, 2.0};
    double tauMin = 0.0; // points with tauMin < tau <= tauMax (tau = 0 always left out)
    double tauMax = std::numeric_limits<double>::infinity();
};
double g2Model(double tau, const std::vector<double>& p);

// Power law rate(q) = prefactor q^exponent; parameters in this order: prefactor, exponent.
struct PowerLawModel {
    FitParameter prefactor{1.0, false, 0.0}, exponent{2.0};
};

// The straight line through log rate against log q (points with q > 0 and rate > 0, unweighted)
// as a power law: start values of fitRateVsQ, and the reference the quality flag compares each
// bin's Γ with (it always exists with 2 distinct q; unset values: the defaults).
PowerLawModel powerLawLine(const std::vector<double>& q, const std::vector<double>& rate);

// Whether this build has GSL (fits available).
bool fitAvailable();

// Weighted by 1/sigma^2; points whose sigma is zero or not finite are left out (g2_err of the
// last lag is 0: one pair). Unweighted over every point when no sigma is usable.
using ModelFunction = std::function<double(double x, const std::vector<double>& p)>;
FitResult fitLeastSquares(const ModelFunction& model, const std::vector<FitParameter>& params,
                          const std::vector<double>& x, const std::vector<double>& y,
                          const std::vector<double>& sigma);

// Fit one bin's g2(tau) (non-finite points and tau = 0 left out).
FitResult fitG2(const std::vector<double>& tau, const std::vector<double>& g2,
                const std::vector<double>& g2Err, const G2Model& model = {});

// Fit the bins' rates against their q values (bins with a non-finite or non-positive rate
// left out). Pass q^2 as q with exponent 1 for a diffusion fit.
FitResult fitRateVsQ(const std::vector<double>& q, const std::vector<double>& rate,
                     const std::vector<double>& rateErr, const PowerLawModel& model = {});

} // namespace clscope::xpcs
