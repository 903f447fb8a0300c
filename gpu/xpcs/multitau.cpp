// xpcs multi-tau through the algorithm: parameters, variant support, streamed input, dispatch.
#include "gpu/xpcs/multitau.hpp"

#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "gpu/xpcs/recipes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::xpcs {

std::vector<ParamSpec> multitauParamSpecs() {
    using T = ParamSpec::Type;
    ParamSpec multitau =
        makeParam("multitau", T::Bool, false,
                  "Multi-tau lags: C per level of the stack binned by 2^k, read once in bounded "
                  "memory (default: every lag)");
    multitau.label = "Multi-tau", multitau.flag = "--multitau";
    ParamSpec channels =
        makeParam("channels", T::Int, 16, "Multi-tau: lags per level C (even, >= 4)", "lags");
    channels.label = "Channels", channels.min = 4, channels.max = 1024,
    channels.flag = "--channels";
    ParamSpec bin = makeParam("twotime_bin", T::Int, 0,
                              "Multi-tau: two-time maps of the stack binned by F frames (0: the "
                              "smallest F giving at most 1024 binned frames)",
                              "frames");
    bin.label = "Two-time binning", bin.min = 0, bin.flag = "--twotime-bin";
    return {multitau, channels, bin};
}

Support multitauSupport(const std::string& variant, bool multitau) {
    if (multitau && variant != "cpu" && variant != "multitau")
        return {false, "dense only; --multitau runs on the variants multitau and cpu"};
    if (!multitau && variant == "multitau")
        return {false, "multi-tau only (add --multitau); dense lags run on gemm, ordered, naive "
                       "and cpu"};
    return {};
}

VariantEntry multitauVariantEntry() {
    return {{"xpcs",
             "multitau",
             "multi-tau: frames streamed once in blocks, per-level rings, exact integer lag sums",
             VariantKind::OpenCL,
             "OpenCL 1.2, 64-bit integers",
             "{}",
             true,
             {programs::multitau}},
            {}};
}

std::string multitauOverflow(DType dtype, std::uint64_t largest, std::int64_t mostPixels,
                             std::size_t frames, int channels) {
    if (dtype == DType::Float32 || dtype == DType::Float64)
        return "float data: the OpenCL multi-tau sums are integers; use the cpu variant";
    // A term of level k is at most n (M 2^k)^2, 2^k <= 2T / C (the last level).
    const double bits = std::log2(double(std::max<std::int64_t>(mostPixels, 1))) +
                        2 * std::log2(double(std::max<std::uint64_t>(largest, 1)) + 1) +
                        2 * std::log2(2.0 * double(frames) / channels + 1);
    if (bits < 62.5) return {};
    return "values up to " + std::to_string(largest) + " in a bin of " +
           std::to_string(mostPixels) + " pixels over " + std::to_string(frames) +
           " frames could exceed the 64-bit sums of the multi-tau OpenCL variant (the cpu "
           "variant is exact)";
}

std::string describeBlocks(const FrameBlocks& blocks, std::size_t bins) {
    return std::to_string(blocks.frameCount()) + " frames of " + std::to_string(blocks.height()) +
           "x" + std::to_string(blocks.width()) + " " + dtypeName(blocks.dtype()) +
           " (streamed), " + std::to_string(bins) + " bins";
}

std::shared_ptr<Input> readStreamed(const InputSources& sources) {
    const InputRole frames = Algorithm().inputRoles()[0];
    const DataLocation at = sources.locate(frames);
    auto blocks = blocksOf(openFrames(sources, frames), at.file + ":" + at.path);
    auto in = readBinning(sources, blocks->height(), blocks->width());
    in->blocks = blocks;
    in->largest = dtypeLargest(blocks->dtype());
    for (std::int64_t n : makeBins(in->labels).pixelCounts)
        in->mostPixels = std::max(in->mostPixels, n);
    return in;
}

Result correlateMultitau(const DeviceInfo& device, const std::string& variant,
                         const FrameBlocks& frames, const LabelMask& mask, const Params& params,
                         const Progress& progress, const ProgramOverrides& programs) {
    const std::string& id = variant; // resolved by runAlgorithm
    if (frames.frameCount() == 0) throw InputError("xpcs: the frame stack holds no frames");
    checkInputs(frames.read(0, 1), mask, params); // dtype, shape, bins, frame time
    if (id != "cpu" && id != "multitau")
        throw UsageError("xpcs variant '" + id +
                         "' is dense only; --multitau runs on the variants multitau and cpu");
    Result r = id == "cpu"
                   ? correlateMultitauCpu(frames, mask, params, progress)
                   : correlateMultitauStream(device, frames, mask, params, progress, programs);
    r.twotime = binnedTwotime(frames, mask, params);
    r.twotimeBin = twotimeBinOf(frames.frameCount(), params);
    return r;
}

} // namespace clscope::xpcs
