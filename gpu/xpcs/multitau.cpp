// xpcs multi-tau through the algorithm: parameters, streamed input, the OpenCL sums bound.
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

std::shared_ptr<XpcsInput> readStreamed(const InputSources& sources) {
    const InputRole frames = Algorithm().role("frames");
    const DataLocation at = sources.locate(frames);
    auto blocks = blocksOf(openFrames(sources, frames), at.file + ":" + at.path);
    auto in = readBinning(sources, blocks->height(), blocks->width());
    in->blocks = blocks;
    in->largest = dtypeLargest(blocks->dtype());
    for (std::int64_t n : makeBins(in->labels).pixelCounts)
        in->mostPixels = std::max(in->mostPixels, n);
    return in;
}

} // namespace clscope::xpcs
