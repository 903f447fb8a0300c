// xpcs bins, input checks, result skeleton and parameter JSON.
#include "core/xpcs/xpcs.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <span>

namespace clscope::xpcs {

std::string Params::toJson() const {
    nlohmann::json j;
    j["twotime"] = twotimeLabels;
    if (frameTime) j["frame_time"] = *frameTime;
    j["chunk_pixels"] = chunkPixels;
    j["tuning"] = tuning;
    if (multitau) j["multitau"] = true, j["channels"] = channels;
    if (normalisation == Normalisation::Symmetric) j["g2_normalisation"] = "symmetric";
    return j.dump();
}

int Bins::find(std::int32_t label) const {
    const auto it = std::lower_bound(labels.begin(), labels.end(), label);
    return it != labels.end() && *it == label ? static_cast<int>(it - labels.begin()) : -1;
}

Bins makeBins(const LabelMask& mask) {
    Bins bins;
    bins.labels = mask.bins();
    bins.pixelCounts.assign(bins.count(), 0);
    // Bin index of each label up to 2^20 from a table (a binary search per pixel took 8 ms of
    // the 511x511 bench case's setup on the development machine), larger labels searched.
    const std::int32_t top = bins.labels.empty() ? 0 : bins.labels.back();
    std::vector<int> table(top <= (std::int32_t(1) << 20) ? std::size_t(top) + 1 : 0, -1);
    for (std::size_t b = 0; b < bins.count() && !table.empty(); ++b)
        table[static_cast<std::size_t>(bins.labels[b])] = static_cast<int>(b);
    // Counting sort of the labelled pixels by bin, raster order inside each bin: the bin of a
    // pixel looked up twice rather than kept in a per-pixel array (whose page faults were most
    // of makeBins' 2.1 ms on the development machine for the 511x511 bench labels).
    const std::size_t n = mask.labels.size();
    const std::int32_t* labels = mask.labels.data();
    const int* binOfLabel = table.empty() ? nullptr : table.data();
    auto binOf = [&](std::int32_t l) {
        return binOfLabel ? binOfLabel[l] : static_cast<int>(bins.find(l));
    };
    std::int64_t* counts = bins.pixelCounts.data();
    for (std::size_t i = 0; i < n; ++i)
        if (labels[i] > 0) ++counts[binOf(labels[i])];
    bins.offsets.assign(bins.count() + 1, 0);
    for (std::size_t b = 0; b < bins.count(); ++b)
        bins.offsets[b + 1] = bins.offsets[b] + bins.pixelCounts[b];
    bins.pixelIndex.resize(static_cast<std::size_t>(bins.offsets.back()));
    std::vector<std::int64_t> next(bins.offsets.begin(), bins.offsets.end() - 1);
    std::int64_t* at = next.data();
    std::int32_t* index = bins.pixelIndex.data();
    for (std::size_t i = 0; i < n; ++i)
        if (labels[i] > 0) index[at[binOf(labels[i])]++] = static_cast<std::int32_t>(i);
    return bins;
}

void checkInputs(const Array& frames, const LabelMask& mask, const Params& params) {
    const DType d = frames.dtype();
    if (d != DType::UInt8 && d != DType::UInt16 && d != DType::UInt32 && d != DType::Int32 &&
        d != DType::Float32)
        throw InputError("xpcs: frames must be uint8, uint16, uint32, int32 or float32, not " +
                         dtypeName(d));
    if (frames.rank() != 3)
        throw InputError("xpcs: frames must be a (T,H,W) stack, found shape " +
                         shapeString(frames.shape()));
    if (frames.size() == 0)
        throw InputError("xpcs: frames of shape " + shapeString(frames.shape()) +
                         " hold no pixels");
    if (mask.height != frames.height() || mask.width != frames.width())
        throw InputError("xpcs: q-bin labels of shape (" + std::to_string(mask.height) + ", " +
                         std::to_string(mask.width) + ") do not match the frames " +
                         shapeString(frames.shape()));
    if (frames.frameSize() > static_cast<std::size_t>(INT32_MAX))
        throw InputError("xpcs: frames of more than 2^31 pixels are not supported");
    const std::vector<std::int32_t> labels = mask.bins();
    if (labels.empty()) throw InputError("xpcs: the q-bin labels have no bin (no label > 0)");
    for (std::int32_t l : params.twotimeLabels)
        if (!std::binary_search(labels.begin(), labels.end(), l))
            throw UsageError("xpcs: two-time label " + std::to_string(l) + " is not a q bin");
    if (params.frameTime && !(*params.frameTime > 0))
        throw UsageError("xpcs: the frame time must be > 0 seconds");
}

std::uint64_t largestMagnitude(const Array& frames, const LabelMask& mask) {
    if (frames.dtype() == DType::UInt8) return 255; // no scan: every uint8 bound is met
    std::vector<std::size_t> labelled;
    for (std::size_t i = 0; i < mask.labels.size() && i < frames.frameSize(); ++i)
        if (mask.labels[i] > 0) labelled.push_back(i);
    std::uint64_t largest = 0;
    visitArray(frames, [&](auto values) {
        using T = typename decltype(values)::value_type;
        if constexpr (std::is_integral_v<T>) {
            T lo = 0, hi = 0;
            for (std::size_t t = 0; t < frames.frameCount(); ++t) {
                const T* frame = values.data() + t * frames.frameSize();
                for (std::size_t i : labelled)
                    lo = std::min(lo, frame[i]), hi = std::max(hi, frame[i]);
            }
            largest = std::max<std::uint64_t>(static_cast<std::uint64_t>(hi),
                                              static_cast<std::uint64_t>(-static_cast<Int128>(lo)));
        }
    });
    return largest;
}

std::string sums64Overflow(DType dtype, std::uint64_t largest, std::int64_t mostPixels,
                           std::size_t frames) {
    if (dtype == DType::Float32 || dtype == DType::Float64) return {};
    // Lag 0 sums T Gram diagonals of at most n M^2 each; UInt128 holds it (M^2 < 2^64,
    // n < 2^31, T < 2^32).
    const UInt128 bound = static_cast<UInt128>(largest) * largest *
                          static_cast<UInt128>(mostPixels) * static_cast<UInt128>(frames);
    if (bound < (static_cast<UInt128>(1) << 63)) return {};
    return "values up to " + std::to_string(largest) + " in a bin of " +
           std::to_string(mostPixels) + " pixels over " + std::to_string(frames) +
           " frames could exceed the 64-bit sums of the OpenCL variants (the cpu variant is "
           "exact for any value; a pixel mask removes sentinel pixels)";
}

namespace {

// Frames of T as the high planes of To (frames 0..T-1) then the low ones (T..2T-1).
template <class To, class T> ValuePlanes planesOf(const Array& frames, std::span<const T> values) {
    constexpr int shift = static_cast<int>(sizeof(T)) * 4;
    const std::size_t count = frames.size();
    Array planes(dtypeOf<To>(), {2 * frames.frameCount(), frames.height(), frames.width()});
    const std::span<To> out = planes.as<To>();
    for (std::size_t i = 0; i < count; ++i) {
        const T v = values[i];
        out[i] = static_cast<To>(v >> shift); // arithmetic for int32: H keeps the sign
        out[count + i] = static_cast<To>(v & ((T(1) << shift) - 1));
    }
    return {std::move(planes), shift};
}

} // namespace

bool hasValuePlanes(DType dtype) {
    return dtype == DType::UInt32 || dtype == DType::UInt16 || dtype == DType::Int32;
}

std::optional<ValuePlanes> splitValues(const Array& frames) {
    switch (frames.dtype()) {
    case DType::UInt32:
        return planesOf<std::uint16_t>(frames, frames.as<std::uint32_t>());
    case DType::UInt16:
        return planesOf<std::uint8_t>(frames, frames.as<std::uint16_t>());
    case DType::Int32:
        return planesOf<std::int32_t>(frames, frames.as<std::int32_t>());
    default:
        return std::nullopt;
    }
}

Result makeResult(const Bins& bins, std::size_t frames, const Params& params) {
    Result r;
    r.labels = bins.labels;
    r.pixels = bins.pixelCounts;
    r.frames = frames;
    r.tauInSeconds = params.frameTime.has_value();
    r.tau.resize(frames);
    for (std::size_t t = 0; t < frames; ++t)
        r.tau[t] = static_cast<double>(t) * params.frameTime.value_or(1.0);
    r.g2.assign(bins.count() * frames, 0.0);
    r.g2Err.assign(bins.count() * frames, 0.0);
    r.parametersJson = params.toJson();
    return r;
}

Result makeLagResult(const Bins& bins, std::size_t frames, const Params& params) {
    Result result = makeResult(bins, frames, params);
    for (std::int32_t label : params.twotimeLabels)
        result.twotime[label];
    return result;
}

void stampHostRun(Result& result, const std::string& variant, const std::string& label,
                  std::chrono::steady_clock::time_point start) {
    const std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    result.device = "cpu";
    result.variant = variant;
    result.kernelMs = elapsed.count();
    result.timings.add(label, elapsed.count(), true);
}

} // namespace clscope::xpcs
