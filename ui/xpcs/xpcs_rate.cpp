// Γ against q: the bins' rates with a free power law Γ = A·q^n and the diffusion line Γ = D·q²
// (n fixed at 2), and why either is missing when it is.
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
    if (p.q.size() < 3) {
        p.fitNote +=
            (p.fitNote.empty() ? "" : " ") +
            std::string("No power law: it needs at least 3 bins with a converged fit and Γ > 0 (" +
                        std::to_string(p.q.size()) + " here).");
        return p;
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
        p.fitNote += (p.fitNote.empty() ? "" : " ") +
                     ("The power-law fit Γ = A·q^n did not converge: " +
                      (fit.message.empty() ? std::string("no reason given") : fit.message) + ".");
    }
    const xpcs::FitResult d = diffusionFit(p);
    if (d.converged) p.diffusion = d;
    return p;
}

} // namespace clscope::ui
