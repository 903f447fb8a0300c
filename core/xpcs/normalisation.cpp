#include "core/xpcs/normalisation.hpp"

#include "core/errors.hpp"
#include "core/xpcs/pixel_errors.hpp"

#include <limits>

namespace clscope::xpcs {

Normalisation normalisationNamed(const std::string& name) {
    if (name == "frame") return Normalisation::Frame;
    if (name == "symmetric") return Normalisation::Symmetric;
    throw UsageError("g2_normalisation '" + name + "': expected frame or symmetric");
}

std::string normalisationName(Normalisation n) {
    return n == Normalisation::Symmetric ? "symmetric" : "frame";
}

ParamSpec normalisationParamSpec() {
    ParamSpec spec = makeParam(
        "g2_normalisation", ParamSpec::Type::Choice, "frame",
        "g2 normalisation: frame (frame by frame, DESIGN.md §5) or symmetric (by the "
        "time-averaged intensities of the earlier and later frames, as boost_corr / APS 8-ID-I)");
    spec.label = "g2 normalisation", spec.choices = {"frame", "symmetric"};
    spec.flag = "--g2-normalisation";
    return spec;
}

namespace {

// g2_sym / g2_frame of one bin and lag: (T_k − m) Σ S_t S'_t / (Σ S_t Σ S'_t).
double symmetricFactor(const LagSums& s) {
    const double denominator = s.later * s.earlier;
    return denominator == 0.0 ? std::numeric_limits<double>::quiet_NaN()
                              : s.pairs * s.products / denominator;
}

} // namespace

void makeSymmetric(Result& r, const std::vector<LagSums>& sums) {
    if (r.normalisation == Normalisation::Symmetric) return;
    for (std::size_t i = 0; i < r.g2.size(); ++i) {
        const double factor = symmetricFactor(sums[i]);
        r.g2[i] *= factor;
        r.g2Err[i] *= factor;
    }
    r.normalisation = Normalisation::Symmetric;
    r.errFromPixels = false;
}

std::vector<double> unnormalisedG2(const Result& r, const std::vector<LagSums>& sums) {
    std::vector<double> out(r.g2.size());
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        const double n = static_cast<double>(r.pixels[b]);
        for (std::size_t j = 0; j < r.frames; ++j) {
            const std::size_t i = b * r.frames + j;
            const LagSums& s = sums[i];
            // frame: Σ N = g2 Σ S S' / n; symmetric: Σ N = g2 Σ S Σ S' / (n (T_k − m)).
            const double sumN = r.normalisation == Normalisation::Symmetric
                                    ? r.g2[i] * s.later * s.earlier / (n * s.pairs)
                                    : r.g2[i] * s.products / n;
            out[i] = sumN / (n * s.pairs);
        }
    }
    return out;
}

void applyNormalisation(Result& r, const std::vector<LagSums>& sums, const FrameBlocks& frames,
                        const LabelMask& labels, Normalisation normalisation, bool pixelErrors) {
    if (normalisation == Normalisation::Frame) return;
    makeSymmetric(r, sums);
    if (pixelErrors) {
        r.g2Err = symmetricPixelErrors(frames, labels, r);
        r.errFromPixels = true;
    }
}

} // namespace clscope::xpcs
