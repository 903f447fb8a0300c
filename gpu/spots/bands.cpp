// spots split into bands of rows (bands.hpp).
#include "gpu/spots/bands.hpp"

#include "core/errors.hpp"
#include "gpu/spots/algorithm.hpp"

#include <algorithm>
#include <cstring>

namespace clscope::spots {

namespace {

// Rows [first, last) of every frame of a (T,H,W) or (H,W) array, the same rank.
Array rowRange(const Array& a, std::size_t first, std::size_t last) {
    Shape shape = a.shape();
    shape[shape.size() - 2] = last - first;
    Array out(a.dtype(), shape);
    const std::size_t row = a.width() * dtypeSize(a.dtype()), frame = a.height() * row;
    const std::size_t count = a.rank() == 3 ? a.frameCount() : 1;
    for (std::size_t t = 0; t < count; ++t)
        std::memcpy(out.bytes() + t * (last - first) * row, a.bytes() + t * frame + first * row,
                    (last - first) * row);
    return out;
}

PixelMask maskRows(const PixelMask& mask, std::size_t first, std::size_t last) {
    if (mask.bad.empty()) return mask;
    PixelMask out{last - first, mask.width, {}};
    out.bad.assign(mask.bad.begin() + static_cast<std::ptrdiff_t>(first * mask.width),
                   mask.bad.begin() + static_cast<std::ptrdiff_t>(last * mask.width));
    return out;
}

// The kept rows of a band's per-pixel image (count frames of band rows x w) into the whole one
// (count frames of h x w).
template <class T>
void copyKept(std::vector<T>& to, const std::vector<T>& from, const Band& band, std::size_t count,
              std::size_t h, std::size_t w) {
    if (from.empty() || to.empty()) return;
    const std::size_t bandPlane = from.size() / count, skip = (band.keep0 - band.first) * w;
    for (std::size_t t = 0; t < count; ++t)
        std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(t * bandPlane + skip),
                    (band.keep1 - band.keep0) * w,
                    to.begin() + static_cast<std::ptrdiff_t>((t * h + band.keep0) * w));
}

void copyKeptDebug(DebugImages& to, const DebugImages& from, const Band& b, std::size_t n,
                   std::size_t h, std::size_t w) {
    copyKept(to.mean, from.mean, b, n, h, w), copyKept(to.variance, from.variance, b, n, h, w);
    copyKept(to.dispersion, from.dispersion, b, n, h, w);
    copyKept(to.sigmaB, from.sigmaB, b, n, h, w), copyKept(to.sigmaS, from.sigmaS, b, n, h, w);
    copyKept(to.global, from.global, b, n, h, w), copyKept(to.final, from.final, b, n, h, w);
}

DebugImages sizedDebug(std::size_t n) {
    DebugImages d;
    d.mean.assign(n, 0), d.variance.assign(n, 0), d.dispersion.assign(n, 0);
    d.sigmaB.assign(n, 0), d.sigmaS.assign(n, 0), d.global.assign(n, 0), d.final.assign(n, 0);
    return d;
}

// The band's signal pixels in its kept rows, as indices into the whole frame.
void appendKept(FramePixels& to, const FramePixels& from, const Band& band, std::size_t w) {
    const std::uint32_t lo = static_cast<std::uint32_t>((band.keep0 - band.first) * w),
                        hi = static_cast<std::uint32_t>((band.keep1 - band.first) * w),
                        shift = static_cast<std::uint32_t>(band.first * w);
    for (std::size_t t = 0; t < from.size(); ++t)
        for (const std::uint32_t k : from[t])
            if (k >= lo && k < hi) to[t].push_back(k + shift);
}

} // namespace

std::size_t bandHalo(const Params& p) {
    const std::size_t ky = static_cast<std::size_t>(p.kernelY);
    if (p.method == Method::Dispersion) return ky;
    return ky + static_cast<std::size_t>(erosionDistance(p) - 1) + (ky + 2);
}

std::vector<Algorithm::Part> splitBands(const SpotsInput& in, const ParamSet& partParams,
                                        std::size_t parts, std::size_t halo) {
    const std::size_t h = in.data.frames.height();
    const std::size_t n = std::clamp<std::size_t>(h / std::max<std::size_t>(halo, 1), 1, parts);
    if (n == 1) return {{std::shared_ptr<const AlgorithmInput>(&in, [](auto*) {}), partParams}};
    const Params params = Algorithm().parameters(partParams);
    std::vector<Algorithm::Part> out;
    for (std::size_t i = 0, keep0 = 0; i < n; ++i) {
        const std::size_t rows = h / n + (i < h % n ? 1 : 0);
        auto band = std::make_shared<Band>();
        band->whole = &in, band->params = params;
        band->keep0 = keep0, band->keep1 = keep0 + rows;
        band->first = keep0 - std::min(keep0, halo);
        const std::size_t last = std::min(h, band->keep1 + halo);
        auto part = std::make_shared<SpotsInput>();
        part->data.frames = rowRange(in.data.frames, band->first, last);
        part->data.mask = maskRows(in.data.mask, band->first, last);
        part->signalMask = in.signalMask;
        part->provenance = in.provenance;
        part->band = band;
        out.push_back({part, partParams});
        keep0 += rows;
    }
    return out;
}

std::shared_ptr<SpotsResult> joinBands(const std::vector<std::shared_ptr<SpotsResult>>& parts) {
    const SpotsResult& first = *parts.front();
    const Input& whole = first.band->whole->data;
    const std::size_t h = whole.frames.height(), w = whole.frames.width();
    const std::size_t count = whole.frames.rank() == 3 ? whole.frames.frameCount() : 1;
    FramePixels pixels(count);
    std::vector<std::uint8_t> signal(first.result.signal.empty() ? 0 : count * h * w, 0);
    auto out = std::make_shared<SpotsResult>();
    if (first.debug) out->debug = sizedDebug(count * h * w);
    for (const auto& at : parts) {
        const SpotsResult& part = *at;
        if (!part.band) throw UsageError("spots: a band's result without its band");
        appendKept(pixels, part.result.pixels, *part.band, w);
        copyKept(signal, part.result.signal, *part.band, count, h, w);
        if (out->debug && part.debug)
            copyKeptDebug(*out->debug, *part.debug, *part.band, count, h, w);
        if (out->note.empty()) out->note = part.note;
    }
    out->result = finishResult(whole, std::move(signal), std::move(pixels), first.band->params);
    return out;
}

} // namespace clscope::spots
