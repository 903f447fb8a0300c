#include "core/xpcs/fit_bins.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>

namespace clscope::xpcs {

namespace {

// The start values and bounds of the parameters the shape adds to baseline, β and Γ.
void startShape(G2Model& m, G2Shape shape, double q) {
    if (shape == G2Shape::Stretched) m.alpha = {1.0, false, 0.05, 2.0};
    if (shape == G2Shape::Double) {
        m.beta.value /= 2;
        m.beta2 = {m.beta.value, false, 0.0, 2.0};
        m.rate2 = {m.rate.value / 3, false, 0.0};
        m.rate.value *= 3;
    }
    if (shape == G2Shape::Flow) {
        m.velocity = {q > 0 ? 2 * m.rate.value / q : 0.0, false};
        m.rate.value /= 2;
    }
    m.q = q;
}

} // namespace

G2Model startingModel(const std::vector<double>& tau, const double* g2, G2Shape shape, double q) {
    G2Model m;
    const std::size_t n = tau.size();
    double tail = 0.0;
    std::size_t tailCount = 0;
    for (std::size_t t = n - n / 5; t < n; ++t)
        if (std::isfinite(g2[t])) tail += g2[t], ++tailCount;
    m.baseline.value = tailCount ? tail / static_cast<double>(tailCount) : 1.0;
    const double first = n > 1 && std::isfinite(g2[1]) ? g2[1] - m.baseline.value : 0.1;
    m.beta.value = std::max(first, 1e-3);
    double halfTau = n > 1 ? tau.back() : 1.0;
    for (std::size_t t = 1; t < n; ++t)
        if (std::isfinite(g2[t]) && g2[t] - m.baseline.value < 0.5 * first) {
            halfTau = tau[t];
            break;
        }
    m.rate.value = halfTau > 0 ? std::log(2.0) / (2.0 * halfTau) : 1.0;
    startShape(m, shape, q);
    return m;
}

G2Model FitOptions::model(const std::vector<double>& tau, const double* g2, double q) const {
    G2Model m = startingModel(tau, g2, shape, q);
    const auto user = [](FitParameter p, double start) {
        if (!p.fixed) p.value = p.lower <= p.upper ? std::clamp(start, p.lower, p.upper) : start;
        return p;
    };
    m.baseline = user(baseline, m.baseline.value);
    m.beta = user(beta, std::max(m.beta.value, 1e-3));
    if (shape == G2Shape::Stretched) m.alpha = user(alpha, m.alpha.value);
    if (shape == G2Shape::Double) {
        m.beta2.lower = beta.lower, m.beta2.upper = beta.upper; // the components swap
        m.beta2 = user(m.beta2, std::max(m.beta2.value, 1e-3));
    }
    m.tauMin = tauMin;
    m.tauMax = !std::isnan(tauMax) ? tauMax : tau.empty() ? 0.0 : tau[(tau.size() - 1) / 3];
    return m;
}

namespace {

struct Column {
    const char* name;
    G2Param param;
    std::vector<double> BinFits::*value;
    std::vector<double> BinFits::*error;
};

const Column columns[] = {{"baseline", ParamBaseline, &BinFits::baseline, &BinFits::baselineErr},
                          {"beta", ParamBeta, &BinFits::beta, &BinFits::betaErr},
                          {"gamma", ParamRate, &BinFits::gamma, &BinFits::gammaErr},
                          {"alpha", ParamAlpha, &BinFits::alpha, &BinFits::alphaErr},
                          {"beta2", ParamBeta2, &BinFits::beta2, &BinFits::beta2Err},
                          {"gamma2", ParamRate2, &BinFits::gamma2, &BinFits::gamma2Err},
                          {"velocity", ParamVelocity, &BinFits::velocity, &BinFits::velocityErr}};

void appendBin(BinFits& f, const FitResult& fit, const G2Model& model) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Column& c : columns) {
        (f.*c.value).push_back(fit.converged ? fit.values[c.param] : nan);
        (f.*c.error).push_back(fit.converged ? fit.errors[c.param] : nan);
    }
    f.chiSquaredReduced.push_back(fit.converged ? fit.chiSquaredReduced : nan);
    f.aic.push_back(fit.converged ? fit.aic : nan);
    f.bic.push_back(fit.converged ? fit.bic : nan);
    f.results.push_back(fit);
    f.quality.push_back(assessG2Fit(fit, model));
}

void swapParams(FitResult& fit, G2Param a, G2Param b) {
    std::swap(fit.values[a], fit.values[b]);
    std::swap(fit.errors[a], fit.errors[b]);
}

// The model's conventions on a fitted bin: double's first component the faster (Γ ≥ Γ₂);
// flow's v ≥ 0 (sinc² is even).
void normalise(FitResult& fit, G2Shape shape) {
    if (!fit.converged || fit.values.size() < G2ParamCount) return;
    if (shape == G2Shape::Double && fit.values[ParamRate2] > fit.values[ParamRate]) {
        swapParams(fit, ParamBeta, ParamBeta2);
        swapParams(fit, ParamRate, ParamRate2);
    }
    fit.values[ParamVelocity] = std::abs(fit.values[ParamVelocity]);
}

FitResult fitBin(const Result& r, std::size_t b, const G2Model& model, G2Shape shape) {
    if (shape == G2Shape::Flow && !(model.q > 0)) {
        FitResult failed;
        failed.message = "flow needs the bin's q (v·q·τ); this bin has none";
        return failed;
    }
    const double* g2 = &r.g2[b * r.frames];
    const double* err = &r.g2Err[b * r.frames];
    FitResult fit = fitG2(r.tau, std::vector<double>(g2, g2 + r.frames),
                          std::vector<double>(err, err + r.frames), model);
    normalise(fit, shape);
    return fit;
}

} // namespace

void requireFitInput(const FitOptions& options, bool qKnown) {
    if (options.shape == G2Shape::Flow && !qKnown)
        throw UsageError("--fit flow needs the q of each bin (the flow term is sinc²(v·q·τ)): "
                         "the labels have none (/entry/processing/qmask_q with qmask_label_ids)");
}

BinFits fitBins(const Result& r, const FitOptions& options, const std::vector<double>& q) {
    const bool haveQ = q.size() == r.binCount();
    requireFitInput(options, haveQ);
    BinFits f;
    f.shape = options.shape;
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        const G2Model model = options.model(r.tau, &r.g2[b * r.frames], haveQ ? q[b] : 0.0);
        appendBin(f, fitBin(r, b, model, options.shape), model);
    }
    if (!haveQ) return f;
    f.q = q;
    f.rateLaw = fitRateLaw(q, f.gamma, f.gammaErr, options.rateLaw, options.rateRange);
    // The line through the bins whose Γ is determined (error below its value).
    std::vector<double> determined(f.gamma.size(), std::numeric_limits<double>::quiet_NaN());
    std::size_t known = 0;
    for (std::size_t b = 0; b < q.size(); ++b)
        if (q[b] > 0 && f.gamma[b] > 0 && f.gammaErr[b] < f.gamma[b])
            determined[b] = f.gamma[b], ++known;
    const PowerLawModel line = powerLawLine(q, determined);
    for (std::size_t b = 0; known >= 3 && b < q.size(); ++b)
        assessRateLaw(f.quality[b], f.gamma[b], f.gammaErr[b], q[b], line);
    return f;
}

namespace {

void writeColumn(H5Writer& out, const std::string& path, const std::vector<double>& v) {
    out.write(path, makeArray<double>({v.size()}, v));
}

void writeScalar(H5Writer& out, const std::string& path, double value, const std::string& unit) {
    out.writeScalar(path, value);
    if (!unit.empty()) out.setAttribute(path, "units", unit);
}

// The parameters' columns (baseline, β, Γ, α always; the others where the shape has them),
// with units on the rates and the velocity.
void writeParameters(H5Writer& out, const BinFits& f, const std::string& fit, bool tauInSeconds) {
    const std::string t = tauInSeconds ? "s" : "frame";
    for (const Column& c : columns) {
        if (c.param > ParamAlpha && !shapeUses(f.shape, c.param)) continue;
        const std::string name = fit + "/" + c.name;
        writeColumn(out, name, f.*c.value);
        writeColumn(out, name + "_err", f.*c.error);
        const std::string unit = c.param == ParamRate || c.param == ParamRate2 ? "1/" + t
                                 : c.param == ParamVelocity                    ? "angstrom/" + t
                                                                               : "";
        if (unit.empty()) continue;
        out.setAttribute(name, "units", unit);
        out.setAttribute(name + "_err", "units", unit);
    }
}

// The τ(q) law: which bins entered it, its law and q range, A and n; D (diffusion) or v
// (ballistic) under their own names with units.
void writeRateLaw(H5Writer& out, const RateLawFit& law, const std::string& fit, bool seconds) {
    std::vector<std::uint8_t> used = law.used;
    out.write(fit + "/rate_law_bins", makeArray<std::uint8_t>({used.size()}, used));
    out.setAttribute(fit, "rate_law", rateLawName(law.law) + ": " + rateLawFormula(law.law));
    if (!std::isnan(law.range.lower)) out.setAttribute(fit, "rate_q_min", law.range.lower);
    if (!std::isnan(law.range.upper)) out.setAttribute(fit, "rate_q_max", law.range.upper);
    if (!law.fit.converged) return;
    writeScalar(out, fit + "/gamma_prefactor", law.fit.values[0], "");
    writeScalar(out, fit + "/gamma_prefactor_err", law.fit.errors[0], "");
    writeScalar(out, fit + "/gamma_exponent", law.fit.values[1], "");
    writeScalar(out, fit + "/gamma_exponent_err", law.fit.errors[1], "");
    const std::string t = seconds ? "s" : "frame";
    const std::string name = law.law == RateLaw::Diffusion   ? "diffusion"
                             : law.law == RateLaw::Ballistic ? "law_velocity"
                                                             : "";
    if (name.empty()) return;
    const std::string unit = (law.law == RateLaw::Diffusion ? "angstrom^2/" : "angstrom/") + t;
    writeScalar(out, fit + "/" + name, law.fit.values[0], unit);
    writeScalar(out, fit + "/" + name + "_err", law.fit.errors[0], unit);
}

} // namespace

void writeBinQ(H5Writer& out, const std::vector<double>& q, const std::string& group) {
    writeColumn(out, group + "/q", q);
    out.setAttribute(group + "/q", "units", "1/angstrom");
}

void writeFits(H5Writer& out, const BinFits& f, const std::string& group, bool tauInSeconds) {
    const std::string fit = group + "/fit";
    writeParameters(out, f, fit, tauInSeconds);
    writeColumn(out, fit + "/chi2_red", f.chiSquaredReduced);
    writeColumn(out, fit + "/aic", f.aic);
    writeColumn(out, fit + "/bic", f.bic);
    out.setAttribute(fit, "model", shapeName(f.shape) + ": g2 = " + shapeFormula(f.shape));
    std::vector<std::uint32_t> quality;
    for (const FitQuality& q : f.quality)
        quality.push_back(q.flags);
    out.write(fit + "/quality", makeArray<std::uint32_t>({quality.size()}, quality));
    out.setAttribute(fit + "/quality", "flags", fitFlagsLegend());
    if (f.q.empty()) return;
    writeBinQ(out, f.q, group);
    if (f.rateLaw) writeRateLaw(out, *f.rateLaw, fit, tauInSeconds);
}

} // namespace clscope::xpcs
