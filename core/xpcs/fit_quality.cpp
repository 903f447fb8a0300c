#include "core/xpcs/fit_quality.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clscope::xpcs {

namespace {

bool atBound(double value, double bound) {
    return std::isfinite(bound) && std::abs(value - bound) <= 1e-6 * std::max(1.0, std::abs(bound));
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string general(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

void add(std::string& out, const std::string& text) {
    out += (out.empty() ? "" : "; ") + text;
}

bool anyAtBound(const FitResult& fit, const std::vector<FitParameter>& params) {
    for (std::size_t i = 0; i < params.size() && i < fit.values.size(); ++i)
        if (!params[i].fixed &&
            (atBound(fit.values[i], params[i].lower) || atBound(fit.values[i], params[i].upper)))
            return true;
    return false;
}

// A free parameter, not at a bound, whose error is not finite or larger than its value.
bool anyUncertain(const FitResult& fit, const std::vector<FitParameter>& params) {
    for (std::size_t i = 0; i < params.size() && i < fit.values.size(); ++i) {
        const double v = fit.values[i], e = i < fit.errors.size() ? fit.errors[i] : NAN;
        if (!params[i].fixed && !atBound(v, params[i].lower) && !atBound(v, params[i].upper) &&
            (!std::isfinite(e) || e > std::abs(v)))
            return true;
    }
    return false;
}

} // namespace

FitGrade fitGrade(const FitResult& fit, const std::vector<FitParameter>& params) {
    if (!fit.converged) return FitGrade::Failed;
    if (anyAtBound(fit, params)) return FitGrade::AtBound;
    const double chi2 = fit.chiSquaredReduced;
    if (!std::isfinite(chi2) || chi2 > chi2RedPoor) return FitGrade::Bad;
    if (chi2 > chi2RedOk) return FitGrade::Poor;
    return chi2 < chi2RedLow ? FitGrade::Overfit : FitGrade::Ok;
}

std::string gradeName(FitGrade grade) {
    switch (grade) {
    case FitGrade::Ok:
        return "ok";
    case FitGrade::Poor:
        return "poor";
    case FitGrade::Bad:
        return "bad";
    case FitGrade::AtBound:
        return "at bound";
    case FitGrade::Failed:
        return "failed";
    case FitGrade::Overfit:
        return "χ²_red too small";
    }
    return "?";
}

std::string fitGradeLegend() {
    return "ok: χ²_red ≤ " + fixed(chi2RedOk, 0) + "; poor: χ²_red ≤ " + fixed(chi2RedPoor, 0) +
           "; bad: χ²_red > " + fixed(chi2RedPoor, 0) + " or not finite; χ²_red too small: below " +
           general(chi2RedLow) +
           " (over-fitted or errors overestimated); at bound: a free parameter sits at its "
           "bound; failed: the fit did not converge. Also flagged: a baseline farther than " +
           general(baselineTolerance) + " from 1, Γ more than " + general(rateLawFactor) +
           "× off the Γ(q) power law";
}

std::string fitConcerns(const FitResult& fit, const std::vector<FitParameter>& params,
                        const std::vector<std::string>& names) {
    if (!fit.converged)
        return fit.message.empty() ? "not converged" : "not converged: " + fit.message;
    std::string out;
    for (std::size_t i = 0; i < params.size() && i < fit.values.size(); ++i) {
        if (params[i].fixed) continue;
        const double v = fit.values[i], e = i < fit.errors.size() ? fit.errors[i] : NAN;
        if (atBound(v, params[i].lower) || atBound(v, params[i].upper))
            add(out, names[i] + " at its bound");
        else if (!std::isfinite(e))
            add(out, names[i] + " has no error");
        else if (e > std::abs(v))
            add(out, names[i] + " error larger than its value");
    }
    return out;
}

std::string fitFlagsLegend() {
    return "bits, 0 = ok: 1 not converged; 2 a free parameter at its bound; 4 chi2_red > " +
           general(chi2RedPoor) + " or not finite; 8 chi2_red in (" + general(chi2RedOk) + ", " +
           general(chi2RedPoor) + "]; 16 chi2_red < " + general(chi2RedLow) +
           " (over-fitted or overestimated errors); 32 |baseline - 1| > " +
           general(baselineTolerance) + " and > 3 sigma; 64 gamma off the gamma(q) power law by " +
           "more than " + general(rateLawFactor) +
           "x and 3 sigma; 128 a free parameter's error larger than its value or not finite; "
           "256 singular covariance (a free parameter without an error)";
}

FitQuality assessG2Fit(const FitResult& fit, const G2Model& model) {
    const std::vector<FitParameter> params = model.parameters();
    FitQuality q;
    q.grade = fitGrade(fit, params);
    q.concerns = fitConcerns(fit, params, {"baseline", "β", "Γ", "α", "β₂", "Γ₂", "v"});
    if (!fit.converged) return q;
    q.flags = 0;
    if (anyAtBound(fit, params)) q.flags |= FlagAtBound;
    if (fit.singular) q.flags |= FlagSingular; // fitConcerns: "X has no error"
    const double chi2 = fit.chiSquaredReduced;
    if (!std::isfinite(chi2) || chi2 > chi2RedPoor)
        q.flags |= FlagChi2Bad;
    else if (chi2 > chi2RedOk)
        q.flags |= FlagChi2Poor;
    if (anyUncertain(fit, params)) q.flags |= FlagError;
    if (chi2 < chi2RedLow) q.flags |= FlagChi2Low; // the grade says it
    const double b = fit.values[0], bErr = fit.errors[0];
    if (!model.baseline.fixed && std::abs(b - 1) > baselineTolerance &&
        !(std::abs(b - 1) <= 3 * bErr)) {
        q.flags |= FlagBaseline;
        add(q.concerns, "baseline " + general(b) + " is not 1 (more than " +
                            general(baselineTolerance) + " off)");
    }
    return q;
}

void assessRateLaw(FitQuality& quality, double gamma, double gammaErr, double q,
                   const PowerLawModel& law) {
    if (!(q > 0) || !(gamma > 0)) return;
    const double expected = law.prefactor.value * std::pow(q, law.exponent.value);
    if (!(expected > 0)) return;
    const double ratio = gamma / expected;
    if (ratio <= rateLawFactor && ratio >= 1 / rateLawFactor) return;
    if (std::abs(gamma - expected) <= 3 * gammaErr) return;
    quality.flags |= FlagRateLaw;
    add(quality.concerns, "Γ " + general(ratio) + "× the Γ(q) power law");
}

} // namespace clscope::xpcs
