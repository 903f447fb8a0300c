#include "core/xpcs/fit_params.hpp"

#include "core/errors.hpp"

#include <cmath>
#include <limits>

namespace clscope::xpcs {

namespace {

using T = ParamSpec::Type;

struct Bounded {
    const char* name;  // "baseline"
    const char* label; // "baseline"
    const char* what;  // help text
    FitParameter FitOptions::*member;
};

const Bounded bounded[] = {
    {"baseline", "baseline", "the baseline (g2 at long τ)", &FitOptions::baseline},
    {"beta", "β", "β (the contrast)", &FitOptions::beta},
    {"alpha", "α", "α (the stretching exponent; --fit stretched only: single fixes it at 1)",
     &FitOptions::alpha}};

nlohmann::json boundOrNull(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

ParamSpec fitDouble(const std::string& name, nlohmann::json value, const std::string& label,
                    const std::string& help, const std::string& unit = "") {
    ParamSpec s = makeParam(name, T::Double, std::move(value), help, unit);
    s.label = label, s.advanced = true;
    s.flag = "--" + name;
    for (char& c : s.flag)
        if (c == '_') c = '-';
    return s;
}

void boundSpecs(std::vector<ParamSpec>& specs, const Bounded& b) {
    const FitOptions defaults;
    const FitParameter& p = defaults.*(b.member);
    const std::string n = std::string("fit_") + b.name, l = b.label;
    specs.push_back(fitDouble(n + "_fixed", nullptr, "Fit " + l + " fixed at",
                              "Fit: keep " + std::string(b.what) +
                                  " at this value (default: free, started from the data)"));
    const std::string none = std::isfinite(p.lower) ? "" : " (default: none)";
    specs.push_back(fitDouble(n + "_min", boundOrNull(p.lower), "Fit " + l + " min",
                              "Fit: lower bound of the free " + l + none));
    specs.push_back(fitDouble(n + "_max", boundOrNull(p.upper), "Fit " + l + " max",
                              "Fit: upper bound of the free " + l + none));
}

double numberOr(const ParamSet& p, const std::string& name, double fallback) {
    return p.has(name) ? p.number(name) : fallback;
}

void checkBelow(double lo, double hi, const std::string& loName, const std::string& hiName) {
    if (!(lo < hi))
        throw UsageError(loName + " (" + nlohmann::json(lo).dump() + ") must be below " + hiName +
                         " (" + nlohmann::json(hi).dump() + ")");
}

// rate_law, with diffusion its shorthand: diffusion with rate_law power (the default) is the
// diffusion law; with ballistic it contradicts it.
RateLaw rateLawOf(const ParamSet& p) {
    const RateLaw law = rateLawFrom(p.text("rate_law"));
    if (!p.boolean("diffusion")) return law;
    if (law == RateLaw::Ballistic)
        throw UsageError("--diffusion (the diffusion law Γ = D·q²) contradicts --rate-law "
                         "ballistic: give one of them");
    return RateLaw::Diffusion;
}

} // namespace

std::vector<ParamSpec> fitParamSpecs() {
    ParamSpec fit = makeParam("fit", T::Choice, "none",
                              "Fit g2 per bin: single exponential, stretched (alpha free), double "
                              "(two exponentials) or flow (sinc² of v·q·τ; needs q)");
    fit.label = "Fit", fit.flag = "--fit";
    fit.choices = {"none"};
    for (const std::string& name : shapeNames())
        fit.choices.push_back(name);
    ParamSpec diffusion = makeParam(
        "diffusion", T::Bool, false,
        "With --fit and q known: fit Γ = D q² (exponent fixed at 2), write /xpcs/fit/diffusion "
        "(the shorthand of --rate-law diffusion)");
    diffusion.label = "Diffusion", diffusion.flag = "--diffusion";
    ParamSpec law = makeOption("rate_law", T::Choice, "power", "τ(q) law", "--rate-law",
                               "With --fit and q known: the law fitted to Γ(q): power Γ = A·qⁿ, "
                               "diffusion Γ = D·q² (writes /xpcs/fit/diffusion), ballistic Γ = "
                               "v·q (writes /xpcs/fit/law_velocity)");
    law.choices = rateLawNames();
    ParamSpec range = makeOption("rate_q_range", T::Text, nullptr, "τ(q) q range", "--rate-q-range",
                                 "The bins whose q is in LO,HI (1/Å, inclusive; either side may "
                                 "be empty) enter the τ(q) law (default: every bin with q)",
                                 "1/Å");
    ParamSpec tauMin = fitDouble("fit_tau_min", 0.0, "Fit τ min",
                                 "Fits use the points with fit_tau_min < τ <= fit_tau_max", "τ");
    tauMin.min = 0.0;
    ParamSpec tauMax = fitDouble(
        "fit_tau_max", nullptr, "Fit τ max",
        "Fits use the points with τ <= this (default: auto, the first third of the lags)", "τ");
    tauMax.min = 0.0;
    std::vector<ParamSpec> specs{fit, diffusion, law, range, tauMin, tauMax};
    for (const Bounded& b : bounded)
        boundSpecs(specs, b);
    return specs;
}

std::optional<FitOptions> fitOptionsFrom(const ParamSet& p) {
    const std::string model = p.text("fit");
    FitOptions o;
    o.rateLaw = rateLawOf(p); // checked with or without a fit
    if (p.has("rate_q_range")) o.rateRange = parseQRange(p.text("rate_q_range"));
    if (model == "none") return std::nullopt;
    o.shape = shapeFrom(model);
    o.tauMin = p.number("fit_tau_min");
    if (p.has("fit_tau_max")) {
        o.tauMax = p.number("fit_tau_max");
        checkBelow(o.tauMin, o.tauMax, "fit_tau_min", "fit_tau_max");
    }
    const double inf = std::numeric_limits<double>::infinity();
    for (const Bounded& b : bounded) {
        const std::string n = std::string("fit_") + b.name;
        FitParameter& param = o.*(b.member);
        param.lower = numberOr(p, n + "_min", -inf);
        param.upper = numberOr(p, n + "_max", inf);
        param.fixed = p.has(n + "_fixed");
        if (param.fixed)
            param.value = p.number(n + "_fixed");
        else if (b.member != &FitOptions::alpha || o.shape == G2Shape::Stretched)
            checkBelow(param.lower, param.upper, n + "_min", n + "_max");
    }
    return o;
}

nlohmann::json fitParamValues(const FitOptions& o) {
    nlohmann::json v = {{"fit", shapeName(o.shape)},
                        {"diffusion", o.rateLaw == RateLaw::Diffusion},
                        {"rate_law", rateLawName(o.rateLaw)},
                        {"rate_q_range", o.rateRange.bounded()
                                             ? nlohmann::json(qRangeText(o.rateRange))
                                             : nlohmann::json()},
                        {"fit_tau_min", o.tauMin},
                        {"fit_tau_max", boundOrNull(o.tauMax)}};
    for (const Bounded& b : bounded) {
        const std::string n = std::string("fit_") + b.name;
        const FitParameter& param = o.*(b.member);
        v[n + "_fixed"] = param.fixed ? nlohmann::json(param.value) : nlohmann::json();
        v[n + "_min"] = boundOrNull(param.lower);
        v[n + "_max"] = boundOrNull(param.upper);
    }
    return v;
}

} // namespace clscope::xpcs
