// azint's input description, its /azint output (DESIGN.md §5) and the comparison of two runs.
#include "gpu/azint/algorithm.hpp"

#include "core/errors.hpp"
#include "core/input/provenance.hpp"

#include <algorithm>

namespace clscope::azint {

namespace {

// (F, N) or (F, M, N) of the result's values.
template <class T> Array binArray(const Result& r, const std::vector<T>& values) {
    const Shape shape = r.cake ? Shape{r.frames, r.azimuthBins, r.bins} : Shape{r.frames, r.bins};
    return makeArray<T>(shape, values);
}

// (N) or (M, N): each bin's count in every frame (the fewest of its frames: the sentinels may
// differ between frames; without them every frame's count).
Array countArray(const Result& r) {
    const std::size_t perFrame = r.azimuthBins * r.bins;
    std::vector<std::int64_t> least(perFrame, 0);
    for (std::size_t f = 0; f < r.frames; ++f)
        for (std::size_t i = 0; i < perFrame; ++i) {
            const std::int64_t c = r.count[f * perFrame + i];
            least[i] = f == 0 ? c : std::min(least[i], c);
        }
    const Shape shape = r.cake ? Shape{r.azimuthBins, r.bins} : Shape{r.bins};
    return makeArray<std::int64_t>(shape, least);
}

std::size_t nonEmpty(const Result& r) {
    std::size_t n = 0;
    for (const auto c : r.count)
        n += c > 0;
    return n;
}

// The first bin whose count differs, or -1.
long long firstCountDifference(const Result& got, const Result& want, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (got.count[i] != want.count[i]) return static_cast<long long>(i);
    return -1;
}

std::string binName(const Result& r, long long index) {
    const std::size_t i = static_cast<std::size_t>(index), perFrame = r.azimuthBins * r.bins;
    std::string s = "frame " + std::to_string(i / perFrame);
    if (r.cake) s += ", azimuthal bin " + std::to_string(i % perFrame / r.bins);
    return s + ", radial bin " + std::to_string(i % r.bins);
}

} // namespace

std::string AzintInput::describe() const {
    const Array& a = data.frames;
    return std::to_string(a.frameCount()) + " frame(s) of " + std::to_string(a.height()) + "x" +
           std::to_string(a.width()) + " " + dtypeName(a.dtype()) + ", geometry from " +
           geometryOrigin;
}

AzintInput AzintInput::withoutFrames() const {
    AzintInput c;
    c.data.mask = data.mask, c.data.pixelMask = data.pixelMask;
    c.geometry = geometry, c.geometryOrigin = geometryOrigin;
    c.provenance = provenance;
    return c;
}

void AzintResult::write(H5Writer& out, const std::string& group) const {
    const Result& r = result;
    out.write(group + "/radial", makeArray<double>({r.radial.size()}, r.radial));
    out.setAttribute(group + "/radial", "units", unitAttribute(r.unit));
    out.setAttribute(group + "/radial", "unit", unitName(r.unit)); // pyFAI's name
    if (r.cake) {
        out.write(group + "/azimuthal", makeArray<double>({r.azimuthal.size()}, r.azimuthal));
        out.setAttribute(group + "/azimuthal", "units", "deg");
    }
    out.write(group + "/intensity", binArray(r, r.intensity));
    out.write(group + "/error", binArray(r, r.error));
    out.write(group + "/count", countArray(r));
    out.write(group + "/count_per_frame", binArray(r, r.count));
    out.write(group + "/sum_signal", binArray(r, r.sumSignal));
    out.write(group + "/sum_normalization", binArray(r, r.sumNormalization));
    writeProvenance(out, group, {info.device, info.variant, info.parametersJson, info.kernelMs});
}

std::string AzintResult::summary() const {
    const Result& r = result;
    return std::to_string(r.frames) + " frame(s) x " +
           (r.cake ? std::to_string(r.azimuthBins) + " x " : std::string()) +
           std::to_string(r.bins) + " bins, " + std::to_string(nonEmpty(r)) + " non-empty";
}

Deviation Algorithm::compareWith(const AzintResult& result, const AzintResult& reference) const {
    const Result& got = result.result;
    const Result& want = reference.result;
    // A reference on the leading frames only (bench stream) checks that prefix.
    const std::size_t n = want.count.size();
    if (got.bins != want.bins || got.azimuthBins != want.azimuthBins || got.count.size() < n) {
        Deviation d;
        d.metric = "bins", d.pass = false, d.note = "results of different shapes";
        return d;
    }
    Deviation d = compareValues("|ΔI| / |I| (counts exact)", got.intensity.data(),
                                want.intensity.data(), n, 1e-9, true);
    if (const long long bad = firstCountDifference(got, want, n); bad >= 0) {
        d.pass = false, d.firstIndex = bad;
        d.note = "counts differ";
    }
    if (d.firstIndex >= 0) d.firstWhere = binName(want, d.firstIndex);
    if (got.count.size() > n)
        d.note += (d.note.empty() ? "" : "; ") + std::string("checked on the first ") +
                  std::to_string(want.frames) + " of " + std::to_string(got.frames) + " frames";
    return d;
}

} // namespace clscope::azint
