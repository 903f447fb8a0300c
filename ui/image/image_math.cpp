#include "ui/image/image_math.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::ui {

Image reduceFrames(const Array& stack, Reduction reduction) {
    if (stack.rank() != 3 || stack.frameCount() == 0)
        throw InputError("reduceFrames: expected a non-empty (count,H,W) stack, got " +
                         shapeString(stack.shape()));
    Image image{stack.height(), stack.width(), {}};
    const std::size_t pixels = stack.frameSize();
    const std::size_t frames = reduction == Reduction::Single ? 1 : stack.frameCount();
    const double start =
        reduction == Reduction::Max ? -std::numeric_limits<double>::infinity() : 0.0;
    image.values.assign(pixels, start);
    visitArray(stack, [&](auto values) {
        for (std::size_t f = 0; f < frames; ++f) {
            const auto* frame = values.data() + f * pixels;
            if (reduction == Reduction::Max) {
                for (std::size_t i = 0; i < pixels; ++i)
                    image.values[i] = std::max(image.values[i], static_cast<double>(frame[i]));
            } else {
                for (std::size_t i = 0; i < pixels; ++i)
                    image.values[i] += static_cast<double>(frame[i]);
            }
        }
    });
    if (reduction == Reduction::Mean)
        for (double& v : image.values)
            v /= static_cast<double>(frames);
    return image;
}

void applyMask(Image& image, const std::vector<std::uint8_t>& bad) {
    if (bad.size() != image.values.size()) return; // a mask of another shape does not apply
    for (std::size_t i = 0; i < bad.size(); ++i)
        if (bad[i]) image.values[i] = std::numeric_limits<double>::quiet_NaN();
}

namespace {

// Value at fraction q of the sorted values, linearly interpolated (numpy's default).
double quantile(const std::vector<double>& sorted, double q) {
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double weight = position - static_cast<double>(below);
    return sorted[below] * (1.0 - weight) + sorted[above] * weight;
}

ValueRange meanSigma(const std::vector<double>& values, double sigmas) {
    double sum = 0, sumSquares = 0;
    for (double v : values)
        sum += v, sumSquares += v * v;
    const double n = static_cast<double>(values.size());
    const double mean = sum / n;
    const double sigma = std::sqrt(std::max(0.0, sumSquares / n - mean * mean));
    return {std::max(mean - sigmas * sigma, values.front()),
            std::min(mean + sigmas * sigma, values.back())};
}

} // namespace

ValueRange autoContrast(const Image& image, const ContrastSettings& settings,
                        Normalisation normalisation) {
    std::vector<double> usable;
    usable.reserve(image.values.size());
    for (double v : image.values)
        if (std::isfinite(v) && (normalisation != Normalisation::Log || v > 0)) usable.push_back(v);
    if (usable.empty()) return {normalisation == Normalisation::Log ? 1.0 : 0.0, 10.0};
    std::sort(usable.begin(), usable.end());
    ValueRange range{usable.front(), usable.back()};
    if (settings.mode == ContrastMode::Percentile) {
        const double low = std::clamp(settings.lowPercentile, 0.0, 100.0) / 100.0;
        const double high = std::clamp(settings.highPercentile, 0.0, 100.0) / 100.0;
        range = {quantile(usable, std::min(low, high)), quantile(usable, std::max(low, high))};
    } else if (settings.mode == ContrastMode::MeanSigma) {
        range = meanSigma(usable, settings.sigmas);
    }
    if (!(range.high > range.low))
        range.high = range.low + (normalisation == Normalisation::Log ? range.low : 1.0);
    return range;
}

double normalisedValue(double value, Normalisation normalisation) {
    if (normalisation == Normalisation::Sqrt)
        return std::isnan(value) ? value : std::sqrt(std::max(value, 0.0));
    return value;
}

ValueRange normalisedRange(ValueRange range, Normalisation normalisation) {
    return {normalisedValue(range.low, normalisation), normalisedValue(range.high, normalisation)};
}

std::string reductionName(Reduction r) {
    switch (r) {
    case Reduction::Single:
        return "frame";
    case Reduction::Sum:
        return "sum";
    case Reduction::Mean:
        return "mean";
    case Reduction::Max:
        break;
    }
    return "max";
}

std::string normalisationName(Normalisation n) {
    switch (n) {
    case Normalisation::Linear:
        return "linear";
    case Normalisation::Log:
        return "log";
    case Normalisation::Sqrt:
        break;
    }
    return "sqrt";
}

std::string contrastModeName(ContrastMode m) {
    switch (m) {
    case ContrastMode::MinMax:
        return "min-max";
    case ContrastMode::Percentile:
        return "percentile";
    case ContrastMode::MeanSigma:
        break;
    }
    return "mean ± 3σ";
}

} // namespace clscope::ui
