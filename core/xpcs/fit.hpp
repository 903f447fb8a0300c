// xpcs fits (GSL nonlinear least squares): per bin g2(tau) in one of the models of
// fit_model.hpp, then rate vs q as a power law rate = prefactor q^exponent. Parameters can be
// fixed or bounded (bounds through a smooth transform). Without GSL at build time every fit
// throws.
#pragma once
#include "core/xpcs/fit_model.hpp"

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
    // For comparing models on the same points (lower is better), from the weighted χ² with the
    // errors taken as known: AIC = χ² + 2k, BIC = χ² + k·ln n (k free parameters, n points).
    double aic = std::numeric_limits<double>::quiet_NaN();
    double bic = std::numeric_limits<double>::quiet_NaN();
    std::size_t points = 0; // data points used
    bool converged = false;
    bool singular = false; // the covariance is singular: a free parameter has no error (NaN)
    std::string message;   // GSL's reason when not converged
};

// g2 model (fit_model.hpp); parameters in G2Param order: baseline, beta, rate (Γ, 1/tau
// units), alpha, beta2, rate2, velocity (1/(q·tau) units). Defaults: the single exponential.
struct G2Model {
    FitParameter baseline{1.0}, beta{0.2}, rate{1.0, false, 0.0}, alpha{1.0, true, 0.0, 2.0};
    FitParameter beta2{0.0, true, 0.0, 2.0}, rate2{1.0, true, 0.0}, velocity{0.0, true};
    double q = 0.0;      // the bin's q (flow: v·q·tau); 1/Å
    double tauMin = 0.0; // points with tauMin < tau <= tauMax (tau = 0 always left out)
    double tauMax = std::numeric_limits<double>::infinity();
    std::vector<FitParameter> parameters() const; // in G2Param order
};
// p: the G2Param values (the first four only: alpha-stretched exponential).
double g2Model(double tau, const std::vector<double>& p, double q = 0.0);

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
