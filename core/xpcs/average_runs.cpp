#include "core/xpcs/average_runs.hpp"

#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "core/xpcs/normalisation.hpp"
#include "core/xpcs/xpcs_io.hpp"

#include <algorithm>
#include <concepts>

namespace clscope::xpcs {

AverageRun readAverageRun(const std::string& file) {
    const H5Reader reader(file);
    AverageRun run{file, readResult(reader, outputGroup), {}};
    run.sums = readResultSums(reader, outputGroup, run.result.binCount(), run.result.frames);
    return run;
}

namespace {

std::string text(const std::string& v) {
    return v;
}
std::string text(double v) {
    return shortestText(v);
}
std::string text(bool v) {
    return v ? "yes" : "no";
}
template <std::integral T> std::string text(T v) {
    return std::to_string(v);
}

// "R2.h5: <what> <theirs>, R1.h5: <ours>" when the values differ.
template <class T>
void same(const AverageRun& first, const AverageRun& run, const std::string& what, const T& a,
          const T& b) {
    if (a == b) return;
    throw InputError(run.file + " differs from " + first.file + ": " + what + " " + text(b) +
                     " against " + text(a) +
                     " (average needs one q partition and one set of lags)");
}

void sameBins(const AverageRun& first, const AverageRun& run) {
    const Result &a = first.result, &b = run.result;
    same(first, run, "q bins", a.binCount(), b.binCount());
    for (std::size_t i = 0; i < a.binCount(); ++i) {
        same(first, run, "label of bin " + std::to_string(i), a.labels[i], b.labels[i]);
        same(first, run, "pixels of bin label " + std::to_string(a.labels[i]), a.pixels[i],
             b.pixels[i]);
    }
}

void sameLags(const AverageRun& first, const AverageRun& run, std::size_t lags) {
    const Result &a = first.result, &b = run.result;
    same(first, run, "g2 normalisation", normalisationName(a.normalisation),
         normalisationName(b.normalisation));
    same(first, run, "lag mode (multitau)", a.multitau, b.multitau);
    same(first, run, "tau units (s)", a.tauInSeconds, b.tauInSeconds);
    for (std::size_t j = 0; j < lags; ++j) {
        const std::string lag = "lag " + std::to_string(j) + ": ";
        same(first, run, lag + "tau", a.tau[j], b.tau[j]);
        if (!a.multitau) continue;
        same(first, run, lag + "lag_frames", a.lagFrames[j], b.lagFrames[j]);
        same(first, run, lag + "level", a.levels[j], b.levels[j]);
    }
}

} // namespace

std::size_t sharedLags(const std::vector<AverageRun>& runs) {
    if (runs.empty()) throw UsageError("average: no runs given");
    std::size_t lags = runs.front().result.frames;
    for (const AverageRun& run : runs)
        lags = std::min(lags, run.result.frames);
    for (const AverageRun& run : runs) {
        sameBins(runs.front(), run);
        sameLags(runs.front(), run, lags);
    }
    if (lags == 0) throw InputError(runs.front().file + ": no lags to average");
    return lags;
}

} // namespace clscope::xpcs
