// Pixel arithmetic behind the image view: frame reductions, normalisation and
// auto-contrast that ignores masked pixels (Qt-free, tested without widgets).
#pragma once
#include "core/array.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clscope::ui {

// How the frames [first, last] are combined into the one image shown.
enum class Reduction { Single, Sum, Mean, Max };
// How values map onto the colour scale.
enum class Normalisation { Linear, Log, Sqrt };
// How the colour range is chosen.
enum class ContrastMode { MinMax, Percentile, MeanSigma };

struct ContrastSettings {
    ContrastMode mode = ContrastMode::Percentile;
    double lowPercentile = 1.0, highPercentile = 99.5; // in percent
    double sigmas = 3.0;
};

struct ValueRange {
    double low = 0, high = 1;
};

// A (H,W) image in double; masked pixels hold NaN.
struct Image {
    std::size_t height = 0, width = 0;
    std::vector<double> values;
    double at(std::size_t x, std::size_t y) const { return values[y * width + x]; }
};

// Reduce a (count,H,W) stack to one image: sum, mean or max over its frames (Single = first).
Image reduceFrames(const Array& stack, Reduction reduction);
// Set masked pixels (bad[i] != 0) to NaN.
void applyMask(Image& image, const std::vector<std::uint8_t>& bad);
// Colour range from the finite values (NaN = masked pixels left out); with Log only positive
// values count. An image with no usable value gives [0, 1]; a flat one [v, v + 1].
ValueRange autoContrast(const Image& image, const ContrastSettings& settings,
                        Normalisation normalisation = Normalisation::Linear);
// The value drawn for v: itself, or sqrt(max(v, 0)); Log draws v on a log colour axis.
double normalisedValue(double value, Normalisation normalisation);
ValueRange normalisedRange(ValueRange range, Normalisation normalisation);

std::string reductionName(Reduction r);
std::string normalisationName(Normalisation n);
std::string contrastModeName(ContrastMode m);

} // namespace clscope::ui
