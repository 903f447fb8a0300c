#include "ui/xpcs/xpcs_fit_quality.hpp"

#include <cmath>
#include <cstdio>

namespace clscope::ui {

namespace {

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

} // namespace

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
