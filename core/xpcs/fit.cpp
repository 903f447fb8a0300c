#include "core/xpcs/fit.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>

#ifdef CLSCOPE_HAVE_GSL
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#endif

namespace clscope::xpcs {

double g2Model(double tau, const std::vector<double>& p, double q) {
    double first = p[ParamBeta] * std::exp(-2.0 * std::pow(p[ParamRate] * tau, p[ParamAlpha]));
    if (p.size() < G2ParamCount) return p[ParamBaseline] + first;
    const double flow = sinc(p[ParamVelocity] * q * tau);
    first *= flow * flow;
    return p[ParamBaseline] + first + p[ParamBeta2] * std::exp(-2.0 * p[ParamRate2] * tau);
}

std::vector<FitParameter> G2Model::parameters() const {
    return {baseline, beta, rate, alpha, beta2, rate2, velocity};
}

FitResult fitG2(const std::vector<double>& tau, const std::vector<double>& g2,
                const std::vector<double>& g2Err, const G2Model& m) {
    std::vector<double> x, y, s;
    for (std::size_t i = 0; i < tau.size() && i < g2.size(); ++i) {
        if (!(tau[i] > 0) || tau[i] <= m.tauMin || tau[i] > m.tauMax || !std::isfinite(g2[i]))
            continue;
        x.push_back(tau[i]), y.push_back(g2[i]);
        s.push_back(i < g2Err.size() ? g2Err[i] : NAN);
    }
    const double q = m.q;
    const auto model = [q](double t, const std::vector<double>& p) { return g2Model(t, p, q); };
    return fitLeastSquares(model, m.parameters(), x, y, s);
}

FitResult fitRateVsQ(const std::vector<double>& q, const std::vector<double>& rate,
                     const std::vector<double>& rateErr, const PowerLawModel& m) {
    std::vector<double> x, y, s;
    for (std::size_t i = 0; i < q.size() && i < rate.size(); ++i) {
        if (!(q[i] > 0) || !(rate[i] > 0) || !std::isfinite(rate[i])) continue;
        x.push_back(q[i]), y.push_back(rate[i]);
        s.push_back(i < rateErr.size() ? rateErr[i] : NAN);
    }
    auto power = [](double qv, const std::vector<double>& p) { return p[0] * std::pow(qv, p[1]); };
    return fitLeastSquares(power, {m.prefactor, m.exponent}, x, y, s);
}

PowerLawModel powerLawLine(const std::vector<double>& q, const std::vector<double>& rate) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
    for (std::size_t i = 0; i < q.size() && i < rate.size(); ++i) {
        if (!(q[i] > 0) || !(rate[i] > 0) || !std::isfinite(rate[i]) || !std::isfinite(q[i]))
            continue;
        const double x = std::log(q[i]), y = std::log(rate[i]);
        sx += x, sy += y, sxx += x * x, sxy += x * y, n += 1;
    }
    PowerLawModel model;
    const double det = n * sxx - sx * sx;
    if (det > 0) {
        model.exponent.value = (n * sxy - sx * sy) / det;
        model.prefactor.value = std::exp((sy - model.exponent.value * sx) / n);
    }
    return model;
}

#ifndef CLSCOPE_HAVE_GSL

bool fitAvailable() {
    return false;
}

FitResult fitLeastSquares(const ModelFunction&, const std::vector<FitParameter>&,
                          const std::vector<double>&, const std::vector<double>&,
                          const std::vector<double>&) {
    throw UsageError("fitting needs GSL (libgsl-dev); this clscope build has none");
}

#else

bool fitAvailable() {
    return true;
}

namespace {

// Free parameter u <-> bounded parameter p (MINUIT-style transforms).
struct Transform {
    FitParameter bounds;
    double toValue(double u) const {
        const double lo = bounds.lower, hi = bounds.upper;
        if (std::isfinite(lo) && std::isfinite(hi)) return lo + (hi - lo) * (1 + std::sin(u)) / 2;
        if (std::isfinite(lo)) return lo - 1 + std::sqrt(u * u + 1);
        if (std::isfinite(hi)) return hi + 1 - std::sqrt(u * u + 1);
        return u;
    }
    double derivative(double u) const { // dp/du
        const double lo = bounds.lower, hi = bounds.upper;
        if (std::isfinite(lo) && std::isfinite(hi)) return (hi - lo) * std::cos(u) / 2;
        if (std::isfinite(lo)) return u / std::sqrt(u * u + 1);
        if (std::isfinite(hi)) return -u / std::sqrt(u * u + 1);
        return 1.0;
    }
    double toFree(double p) const {
        const double lo = bounds.lower, hi = bounds.upper;
        const double span = std::isfinite(hi - lo) ? hi - lo : 1.0;
        p = std::clamp(p, lo + 1e-9 * span, hi - 1e-9 * span); // strictly inside
        if (std::isfinite(lo) && std::isfinite(hi)) return std::asin(2 * (p - lo) / (hi - lo) - 1);
        if (std::isfinite(lo)) return std::sqrt((p - lo + 1) * (p - lo + 1) - 1);
        if (std::isfinite(hi)) return std::sqrt((hi - p + 1) * (hi - p + 1) - 1);
        return p;
    }
};

struct Problem {
    const ModelFunction* model;
    std::vector<FitParameter> params;
    std::vector<Transform> free; // one per free parameter
    std::vector<std::size_t> freeIndex;
    const std::vector<double>*x, *y;
    std::vector<double> weight; // 1/sigma
    std::vector<double> values(const gsl_vector* u) const {
        std::vector<double> p;
        for (const FitParameter& fp : params)
            p.push_back(fp.value);
        for (std::size_t k = 0; k < free.size(); ++k)
            p[freeIndex[k]] = free[k].toValue(gsl_vector_get(u, k));
        return p;
    }
};

int residuals(const gsl_vector* u, void* data, gsl_vector* f) {
    const auto* pr = static_cast<const Problem*>(data);
    const std::vector<double> p = pr->values(u);
    for (std::size_t i = 0; i < pr->x->size(); ++i)
        gsl_vector_set(f, i, ((*pr->model)((*pr->x)[i], p) - (*pr->y)[i]) * pr->weight[i]);
    return GSL_SUCCESS;
}

// Columns of the Jacobian whose pivot is below this fraction of the largest are linearly
// dependent: the covariance is singular there (GSL sets their rows and columns to 0).
constexpr double singularTolerance = 1e-12;

// Errors from the covariance (scaled by chi2_red, as scipy's curve_fit); NaN, and the result
// marked singular, where the covariance has no variance for a free parameter.
void collectErrors(FitResult& r, const Problem& pr, gsl_multifit_nlinear_workspace* w) {
    const std::size_t k = pr.free.size();
    gsl_matrix* covar = gsl_matrix_alloc(k, k);
    gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), singularTolerance, covar);
    for (std::size_t j = 0; j < k; ++j) {
        const double variance = gsl_matrix_get(covar, j, j);
        const bool none = !(variance > 0) || !std::isfinite(variance);
        r.singular = r.singular || none;
        r.errors[pr.freeIndex[j]] = none
                                        ? NAN
                                        : std::abs(pr.free[j].derivative(gsl_vector_get(w->x, j))) *
                                              std::sqrt(variance * r.chiSquaredReduced);
    }
    gsl_matrix_free(covar);
}

// Values, errors, chi2_red, AIC and BIC.
FitResult collect(const Problem& pr, gsl_multifit_nlinear_workspace* w, int status) {
    const std::size_t n = pr.x->size(), k = pr.free.size();
    FitResult r;
    r.points = n;
    r.values = pr.values(w->x);
    r.errors.assign(pr.params.size(), 0.0);
    double chi2 = 0;
    gsl_blas_ddot(w->f, w->f, &chi2);
    r.chiSquaredReduced = chi2 / static_cast<double>(n - k);
    r.aic = chi2 + 2.0 * static_cast<double>(k);
    r.bic = chi2 + static_cast<double>(k) * std::log(static_cast<double>(n));
    collectErrors(r, pr, w);
    r.converged = status == GSL_SUCCESS;
    if (!r.converged) r.message = gsl_strerror(status);
    return r;
}

} // namespace

namespace {

FitResult fitWeighted(const ModelFunction& model, const std::vector<FitParameter>& params,
                      const std::vector<double>& x, const std::vector<double>& y,
                      const std::vector<double>& weights) {
    Problem pr{&model, params, {}, {}, &x, &y, weights};
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (params[i].fixed) continue;
        if (!(params[i].lower < params[i].upper))
            throw UsageError("fit: a lower bound is not below its upper bound");
        pr.free.push_back({params[i]});
        pr.freeIndex.push_back(i);
    }
    const std::size_t k = pr.free.size();
    if (x.size() <= k) {
        FitResult r;
        r.points = x.size();
        r.message = "too few points (" + std::to_string(x.size()) + ") for " + std::to_string(k) +
                    " free parameters";
        return r;
    }
    gsl_set_error_handler_off();
    gsl_multifit_nlinear_fdf fdf{residuals, nullptr, nullptr, x.size(), k, &pr, 0, 0, 0};
    gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace* w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, x.size(), k);
    gsl_vector* u0 = gsl_vector_alloc(k);
    for (std::size_t j = 0; j < k; ++j)
        gsl_vector_set(u0, j, pr.free[j].toFree(params[pr.freeIndex[j]].value));
    gsl_multifit_nlinear_init(u0, &fdf, w);
    int info = 0;
    const int status =
        gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 1e-12, nullptr, nullptr, &info, w);
    FitResult r = collect(pr, w, status);
    gsl_vector_free(u0);
    gsl_multifit_nlinear_free(w);
    return r;
}

} // namespace

FitResult fitLeastSquares(const ModelFunction& model, const std::vector<FitParameter>& params,
                          const std::vector<double>& x, const std::vector<double>& y,
                          const std::vector<double>& sigma) {
    // Points whose sigma is zero or not finite carry no weight information (g2_err of the
    // last lag, from one pair, is 0): they are left out, the others keep their weights.
    // Without any usable sigma the fit is unweighted over every point.
    const auto usable = [](double s) { return std::isfinite(s) && s > 0; };
    const bool weighted = std::any_of(sigma.begin(), sigma.end(), usable);
    std::vector<double> xs, ys, ws;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double s = i < sigma.size() ? sigma[i] : NAN;
        if (weighted && !usable(s)) continue;
        xs.push_back(x[i]), ys.push_back(y[i]), ws.push_back(weighted ? 1.0 / s : 1.0);
    }
    return fitWeighted(model, params, xs, ys, ws);
}

#endif

} // namespace clscope::xpcs
