#include "core/xpcs/fit_bins.hpp"

#include <algorithm>
#include <cmath>

namespace clscope::xpcs {

G2Model startingModel(const std::vector<double>& tau, const double* g2, bool stretched) {
    G2Model m;
    if (!stretched)
        m.alpha = {1.0, true, 0.0, 2.0};
    else
        m.alpha = {1.0, false, 0.05, 2.0};
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
    return m;
}

G2Model FitOptions::model(const std::vector<double>& tau, const double* g2) const {
    G2Model m = startingModel(tau, g2, stretched);
    const auto user = [](FitParameter p, double start) {
        if (!p.fixed) p.value = p.lower <= p.upper ? std::clamp(start, p.lower, p.upper) : start;
        return p;
    };
    m.baseline = user(baseline, m.baseline.value);
    m.beta = user(beta, std::max(m.beta.value, 1e-3));
    if (stretched) m.alpha = user(alpha, m.alpha.value);
    m.tauMin = tauMin;
    m.tauMax = !std::isnan(tauMax) ? tauMax : tau.empty() ? 0.0 : tau[(tau.size() - 1) / 3];
    return m;
}

namespace {

void appendBin(BinFits& f, const FitResult& fit, const G2Model& model) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double>* values[] = {&f.baseline, &f.beta, &f.gamma, &f.alpha};
    std::vector<double>* errors[] = {&f.baselineErr, &f.betaErr, &f.gammaErr, &f.alphaErr};
    for (std::size_t i = 0; i < 4; ++i) {
        values[i]->push_back(fit.converged ? fit.values[i] : nan);
        errors[i]->push_back(fit.converged ? fit.errors[i] : nan);
    }
    f.chiSquaredReduced.push_back(fit.converged ? fit.chiSquaredReduced : nan);
    f.results.push_back(fit);
    f.quality.push_back(assessG2Fit(fit, model));
}

} // namespace

BinFits fitBins(const Result& r, const FitOptions& options, const std::vector<double>& q) {
    BinFits f;
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        const double* g2 = &r.g2[b * r.frames];
        const std::vector<double> g2Row(g2, g2 + r.frames),
            errRow(&r.g2Err[b * r.frames], &r.g2Err[b * r.frames] + r.frames);
        const G2Model model = options.model(r.tau, g2);
        appendBin(f, fitG2(r.tau, g2Row, errRow, model), model);
    }
    f.diffusion = options.diffusion;
    if (q.size() != r.binCount()) return f;
    f.q = q;
    PowerLawModel law;
    law.exponent = {2.0, options.diffusion};
    // Start the prefactor from the bin with the largest q.
    for (std::size_t b = 0; b < q.size(); ++b)
        if (q[b] > 0 && f.gamma[b] > 0) law.prefactor.value = f.gamma[b] / (q[b] * q[b]);
    f.powerLaw = fitRateVsQ(q, f.gamma, f.gammaErr, law);
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

} // namespace

void writeFits(H5Writer& out, const BinFits& f, const std::string& group, bool tauInSeconds) {
    const std::string fit = group + "/fit", rate = tauInSeconds ? "1/s" : "1/frame";
    const std::pair<const char*, const std::vector<double>*> columns[] = {
        {"baseline", &f.baseline},
        {"baseline_err", &f.baselineErr},
        {"beta", &f.beta},
        {"beta_err", &f.betaErr},
        {"gamma", &f.gamma},
        {"gamma_err", &f.gammaErr},
        {"alpha", &f.alpha},
        {"alpha_err", &f.alphaErr},
        {"chi2_red", &f.chiSquaredReduced}};
    for (const auto& [name, values] : columns)
        writeColumn(out, fit + "/" + name, *values);
    std::vector<std::uint32_t> quality;
    for (const FitQuality& q : f.quality)
        quality.push_back(q.flags);
    out.write(fit + "/quality", makeArray<std::uint32_t>({quality.size()}, quality));
    out.setAttribute(fit + "/quality", "flags", fitFlagsLegend());
    out.setAttribute(fit + "/gamma", "units", rate);
    out.setAttribute(fit + "/gamma_err", "units", rate);
    if (f.q.empty()) return;
    writeColumn(out, group + "/q", f.q);
    out.setAttribute(group + "/q", "units", "1/angstrom");
    if (!f.powerLaw || !f.powerLaw->converged) return;
    const FitResult& law = *f.powerLaw;
    writeScalar(out, fit + "/gamma_prefactor", law.values[0], "");
    writeScalar(out, fit + "/gamma_prefactor_err", law.errors[0], "");
    writeScalar(out, fit + "/gamma_exponent", law.values[1], "");
    writeScalar(out, fit + "/gamma_exponent_err", law.errors[1], "");
    if (!f.diffusion) return;
    const std::string d = tauInSeconds ? "angstrom^2/s" : "angstrom^2/frame";
    writeScalar(out, fit + "/diffusion", law.values[0], d);
    writeScalar(out, fit + "/diffusion_err", law.errors[0], d);
}

} // namespace clscope::xpcs
