// Γ against q: the bins' rates with the chosen τ(q) law over the bins in its q range
// (xpcs::fitRateLaw, the function clscope-cli correlate --fit writes /xpcs/fit with), the free
// power law Γ = A·q^n and the diffusion line Γ = D·q² (n fixed at 2), and why any is missing.
#include "ui/xpcs/xpcs_fit_quality.hpp"
#include "ui/xpcs/xpcs_presenter.hpp"

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {

// D from Γ = D·q² with the exponent fixed (started from the mean of Γ/q²).
xpcs::FitResult diffusionFit(const XpcsRatePoints& p) {
    xpcs::PowerLawModel model;
    model.exponent = {2.0, true};
    double sum = 0;
    for (std::size_t i = 0; i < p.q.size(); ++i)
        sum += p.rate[i] / (p.q[i] * p.q[i]);
    model.prefactor.value = sum / static_cast<double>(p.q.size());
    return fitOrReason([&] { return xpcs::fitRateVsQ(p.q, p.rate, p.rateErr, model); });
}

std::string joined(const std::string& a, const std::string& b) {
    return a.empty() ? b : a + " " + b;
}

// The chosen law over the points in range, and its line over their q extent.
void fitLaw(XpcsRatePoints& p, const xpcs::FitOptions& options) {
    p.law = options.rateLaw, p.range = options.rateRange;
    std::vector<double> in;
    for (std::size_t i = 0; i < p.q.size(); ++i) {
        p.inRange.push_back(p.range.contains(p.q[i]));
        if (p.inRange.back()) in.push_back(p.q[i]);
    }
    const std::size_t needed = p.law == xpcs::RateLaw::Power ? 3 : 2;
    const std::string name = xpcs::rateLawName(p.law) + " " + xpcs::rateLawFormula(p.law);
    if (in.size() < needed) {
        p.lawNote = "No " + name + " fit: it needs at least " + std::to_string(needed) +
                    " trusted bins in its q range (" + std::to_string(in.size()) + " here).";
        return;
    }
    xpcs::FitResult fit;
    try {
        fit = xpcs::fitRateLaw(p.q, p.rate, p.rateErr, p.law, p.range).fit;
    } catch (const std::exception& e) {
        fit.message = e.what();
    }
    if (!fit.converged) {
        p.lawNote = "The " + name + " fit did not converge: " +
                    (fit.message.empty() ? std::string("no reason given") : fit.message) + ".";
        return;
    }
    const auto [lo, hi] = std::minmax_element(in.begin(), in.end());
    p.lawQ = logSpaced(*lo, *hi, 100);
    for (double q : p.lawQ)
        p.lawRate.push_back(fit.values[0] * std::pow(q, fit.values[1]));
    p.lawFit = fit;
}

// The free power law over every point (and its line), or why not.
void fitPowerLaw(XpcsRatePoints& p) {
    if (p.q.size() < 3) {
        p.fitNote = joined(
            p.fitNote, "No power law: it needs at least 3 bins with a converged fit and Γ > 0 (" +
                           std::to_string(p.q.size()) + " here).");
        return;
    }
    const xpcs::PowerLawModel start = xpcs::powerLawLine(p.q, p.rate);
    const xpcs::FitResult fit =
        fitOrReason([&] { return xpcs::fitRateVsQ(p.q, p.rate, p.rateErr, start); });
    if (fit.converged) {
        const auto [lo, hi] = std::minmax_element(p.q.begin(), p.q.end());
        p.fitQ = logSpaced(*lo, *hi, 100);
        for (double q : p.fitQ)
            p.fitRate.push_back(fit.values[0] * std::pow(q, fit.values[1]));
        p.powerLaw = fit;
    } else {
        p.fitNote =
            joined(p.fitNote,
                   "The power-law fit Γ = A·q^n did not converge: " +
                       (fit.message.empty() ? std::string("no reason given") : fit.message) + ".");
    }
}

} // namespace

XpcsRatePoints XpcsPresenter::rateVsQ() const {
    XpcsRatePoints p;
    if (!q_) {
        p.note = "Γ vs q needs the q of each bin: the labels have no q centres (set them in the "
                 "mask editor, or give the file /entry/processing/qmask_q).";
        return p;
    }
    std::size_t flagged = 0;
    for (const XpcsBinFit& f : fits_)
        if (f.ok() && f.q && *f.q > 0 && f.fit.values[2] > 0) {
            if (!f.usable()) {
                ++flagged;
                continue;
            }
            p.q.push_back(*f.q);
            p.rate.push_back(f.fit.values[2]);
            p.rateErr.push_back(f.fit.errors[2]);
        }
    if (p.q.empty()) {
        p.note = "No bin has a trusted fit with a positive rate Γ (see the Fits tab), so there is "
                 "nothing to plot.";
        return p;
    }
    if (flagged)
        p.fitNote = std::to_string(flagged) + (flagged == 1 ? " bin" : " bins") +
                    " left out: fit flagged in the Fits tab.";
    fitLaw(p, options_);
    fitPowerLaw(p);
    const xpcs::FitResult d = diffusionFit(p);
    if (d.converged) p.diffusion = d;
    return p;
}

} // namespace clscope::ui
