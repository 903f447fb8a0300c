#include "ui/xpcs/xpcs_fit_quality.hpp"

#include <cmath>
#include <cstdio>

namespace clscope::ui {

namespace {

bool atBound(double value, double bound) {
    return std::isfinite(bound) && std::abs(value - bound) <= 1e-6 * std::max(1.0, std::abs(bound));
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

} // namespace

FitGrade fitGrade(const xpcs::FitResult& fit, const std::vector<xpcs::FitParameter>& params) {
    if (!fit.converged) return FitGrade::Failed;
    for (std::size_t i = 0; i < params.size() && i < fit.values.size(); ++i)
        if (!params[i].fixed &&
            (atBound(fit.values[i], params[i].lower) || atBound(fit.values[i], params[i].upper)))
            return FitGrade::AtBound;
    const double chi2 = fit.chiSquaredReduced;
    if (!std::isfinite(chi2) || chi2 > chi2RedPoor) return FitGrade::Bad;
    return chi2 > chi2RedOk ? FitGrade::Poor : FitGrade::Ok;
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
    }
    return "?";
}

std::string fitGradeLegend() {
    return "ok: χ²_red ≤ " + fixed(chi2RedOk, 0) + "; poor: χ²_red ≤ " + fixed(chi2RedPoor, 0) +
           "; bad: χ²_red > " + fixed(chi2RedPoor, 0) +
           " or not finite; at bound: a free parameter sits at its bound; failed: the fit did "
           "not converge";
}

std::string fitConcerns(const xpcs::FitResult& fit, const std::vector<xpcs::FitParameter>& params,
                        const std::vector<std::string>& names) {
    if (!fit.converged)
        return fit.message.empty() ? "not converged" : "not converged: " + fit.message;
    std::string out;
    const auto add = [&out](const std::string& text) { out += (out.empty() ? "" : "; ") + text; };
    for (std::size_t i = 0; i < params.size() && i < fit.values.size(); ++i) {
        if (params[i].fixed) continue;
        const double v = fit.values[i], e = i < fit.errors.size() ? fit.errors[i] : NAN;
        if (atBound(v, params[i].lower) || atBound(v, params[i].upper))
            add(names[i] + " at its bound");
        else if (!std::isfinite(e))
            add(names[i] + " has no error");
        else if (e > std::abs(v))
            add(names[i] + " error larger than its value");
    }
    return out;
}

std::string valueWithError(double value, double error) {
    if (!std::isfinite(value)) return "—";
    char text[96];
    if (!(error > 0) || !std::isfinite(error)) {
        std::snprintf(text, sizeof text, "%.4g ± —", value);
        return text;
    }
    const int place = static_cast<int>(std::floor(std::log10(error))) - 1; // 2 digits of error
    const double magnitude = std::abs(value) > error ? std::abs(value) : error;
    const int power = static_cast<int>(std::floor(std::log10(magnitude)));
    if (power >= -3 && power < 5) {
        const int decimals = std::max(0, -place);
        return fixed(value, decimals) + " ± " + fixed(error, decimals);
    }
    const double scale = std::pow(10.0, power);
    const int decimals = std::max(0, power - place);
    return "(" + fixed(value / scale, decimals) + " ± " + fixed(error / scale, decimals) + ")e" +
           std::to_string(power);
}

} // namespace clscope::ui
