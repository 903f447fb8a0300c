// The `cpu` reference: per frame, a histogram over the pixels in float64; and the same sums
// through the CSR matrix, in the same order (each bin's pixels ascending), so bit-identical.
#include "core/azint/azint.hpp"
#include "core/azint/binning.hpp"
#include "core/azint/csr_matrix.hpp"
#include "core/sentinels.hpp"

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

namespace clscope::azint {

namespace {

template <class T> bool validValue(T v, std::uint64_t limit) {
    if constexpr (std::is_floating_point_v<T>)
        return std::isfinite(v);
    else if constexpr (std::is_unsigned_v<T>)
        return static_cast<std::uint64_t>(v) < limit;
    else
        return true;
}

// Calls f(values) with frame t's values typed as stored.
template <class F> void withFrame(const Array& frames, std::size_t t, F&& f) {
    const std::size_t n = frames.frameSize();
    auto typed = [&](auto tag) {
        using T = decltype(tag);
        f(frames.as<T>().data() + t * n);
    };
    switch (frames.dtype()) {
    case DType::UInt8:
        return typed(std::uint8_t{});
    case DType::UInt16:
        return typed(std::uint16_t{});
    case DType::UInt32:
        return typed(std::uint32_t{});
    case DType::Int32:
        return typed(std::int32_t{});
    case DType::Int64:
        return typed(std::int64_t{});
    case DType::Float32:
        return typed(float{});
    case DType::Float64:
        return typed(double{});
    }
}

// The per-geometry part of a run and the sums of one frame at a time.
class Integration {
  public:
    Integration(const Input& in, const Geometry& g, const Params& p)
        : frames_(in.frames),
          map_(computePixelMap(g, p, in.frames.height(), in.frames.width(), in.mask, in.pixelMask)),
          binning_(computeBinning(map_, p)), limit_(validLimit(in.frames.dtype())) {
        result_ = resultFor(binning_, p, frames_.frameCount());
    }

    const Binning& binning() const { return binning_; }

    // Pixel k of frame t (values v) into bin b, when its value is valid.
    template <class T> void add(std::size_t t, const T* v, std::size_t k, std::size_t b) {
        if (!validValue(v[k], limit_)) return;
        const std::size_t at = t * binning_.bins() + b;
        result_.sumSignal[at] += static_cast<double>(v[k]);
        result_.sumNormalization[at] += map_.normalization[k];
        result_.count[at] += 1;
    }
    template <class F> void eachFrame(F&& f) {
        for (std::size_t t = 0; t < result_.frames; ++t)
            withFrame(frames_, t, [&](const auto* v) { f(t, v); });
    }

    Result finish() {
        finishResult(result_);
        return std::move(result_);
    }

  private:
    const Array& frames_;
    PixelMap map_;
    Binning binning_;
    std::uint64_t limit_;
    Result result_;
};

void check(const Input& in, const Params& p) {
    checkParams(p);
    checkInput(in);
}

} // namespace

Result resultFor(const Binning& binning, const Params& p, std::size_t frames) {
    Result r;
    r.frames = frames, r.unit = p.unit;
    r.bins = binning.radialBins, r.azimuthBins = binning.azimuthBins;
    r.cake = binning.cake;
    r.radial = binning.radialCentres, r.azimuthal = binning.azimuthCentres;
    const std::size_t size = frames * binning.bins();
    r.sumSignal.assign(size, 0.0), r.sumNormalization.assign(size, 0.0);
    r.count.assign(size, 0);
    return r;
}

void finishResult(Result& r) {
    const std::size_t n = r.sumSignal.size();
    r.intensity.assign(n, std::numeric_limits<double>::quiet_NaN());
    r.error.assign(n, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < n; ++i) {
        const double norm = r.sumNormalization[i];
        if (norm == 0.0) continue;
        r.intensity[i] = r.sumSignal[i] / norm;
        r.error[i] = std::sqrt(r.sumSignal[i]) / norm;
    }
}

Result runCpu(const Input& in, const Geometry& g, const Params& p) {
    check(in, p);
    Integration run(in, g, p);
    const auto& bins = run.binning().binOfPixel;
    run.eachFrame([&](std::size_t t, const auto* v) {
        for (std::size_t k = 0; k < bins.size(); ++k)
            if (bins[k] >= 0) run.add(t, v, k, static_cast<std::size_t>(bins[k]));
    });
    return run.finish();
}

Result runCsr(const Input& in, const Geometry& g, const Params& p) {
    check(in, p);
    Integration run(in, g, p);
    const CsrMatrix csr(run.binning().binOfPixel, run.binning().bins());
    run.eachFrame([&](std::size_t t, const auto* v) {
        for (std::size_t b = 0; b < csr.rows(); ++b)
            for (auto i = csr.rowStart()[b]; i < csr.rowStart()[b + 1]; ++i)
                run.add(t, v, static_cast<std::size_t>(csr.pixels()[i]), b);
    });
    return run.finish();
}

} // namespace clscope::azint
