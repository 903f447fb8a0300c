// The OpenCL variant `multitau` over a file or memory: frames streamed once, front to back, in
// blocks of F frames through the device rings (multitau_rings.hpp). The blocks go up through
// pinned staging (gpu/staging.hpp, on every device: PoCL runs the path the GPU takes), block
// i + 1's copies overlapping block i's kernels.
#include "core/errors.hpp"
#include "gpu/staging.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/multitau_rings.hpp"

#include <algorithm>

namespace clscope::xpcs {

namespace {

constexpr int maxChannels = 64; // the kernel's private sums and local reduction

} // namespace

std::size_t multitauBlock(std::size_t pixels, const DeviceInfo& device,
                          const std::map<std::string, int>& tuning) {
    if (const auto it = tuning.find("MT_FRAMES"); it != tuning.end())
        return static_cast<std::size_t>(std::max(1, it->second));
    std::size_t f = device.type == "GPU" ? 256 : 64;
    while (f < 16384 && 2 * f * pixels * sizeof(std::int64_t) <= (std::size_t(4) << 20))
        f *= 2;
    return f;
}

void checkMultitauDevice(DType dtype, std::size_t frames, const LabelMask& mask, const Bins& bins,
                         const Params& params) {
    checkMultitau(dtype, frames, mask, params);
    if (params.channels > maxChannels)
        throw UsageError("xpcs multitau: --channels above " + std::to_string(maxChannels) +
                         " run on the cpu variant");
    const std::int64_t most = *std::max_element(bins.pixelCounts.begin(), bins.pixelCounts.end());
    if (dtype == DType::Float32 || dtype == DType::Float64)
        throw UsageError("xpcs variant 'multitau' cannot run this input: " +
                         multitauOverflow(dtype, 0, most, frames, params.channels));
}

Result correlateMultitauStream(const DeviceInfo& device, const FrameBlocks& frames,
                               const LabelMask& mask, const Params& params,
                               const Progress& progress, const ProgramOverrides& programs) {
    const Bins bins = makeBins(mask);
    checkMultitauDevice(frames.dtype(), frames.frameCount(), mask, bins, params);
    const DType d = frames.dtype();
    const std::size_t total = frames.frameCount(), frameSize = frames.height() * frames.width();
    ClSession session(device);
    Result result;
    try {
        const std::size_t block = multitauBlock(bins.pixelIndex.size(), device, params.tuning);
        MultitauRings rings(session, bins, params, d, frameSize, block, total, programs);
        StreamUpload upload(session, block * frameSize * dtypeSize(d), "multitau frames");
        std::uint64_t largest[2] = {255, 255}; // of the blocks sent, by index % 2
        // Block `index` read and sent: uint8 frames in memory straight from the stack (every
        // value <= 255: nothing to scan), others read and scanned first.
        auto stage = [&](std::size_t index) {
            const std::size_t first = index * block, count = std::min(block, total - first);
            const std::byte* at = d == DType::UInt8 ? frames.inPlace(first, count) : nullptr;
            largest[index % 2] = 255;
            const std::size_t bytes = count * frameSize * dtypeSize(d);
            if (at) return upload.send(index, at, bytes, "multitau upload");
            const Array copy = frames.read(first, count);
            largest[index % 2] = largestMagnitude(copy, mask);
            upload.send(index, copy.bytes(), bytes, "multitau upload");
        };
        stage(0);
        for (std::size_t first = 0, i = 0; first < total; first += block, ++i) {
            rings.enqueue(upload.acquire(i), std::min(block, total - first), largest[i % 2], total);
            upload.release(i);                       // flushes the queue
            if (first + block < total) stage(i + 1); // while block i runs
            rings.complete();
            session.finish(); // events released block by block: memory stays bounded
            progress.report(double(std::min(first + block, total)) / double(total));
            progress.checkCancel();
        }
        session.finish();
        result = rings.finish(total, params);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "xpcs multitau", device);
    }
    result.device = device.spec + " (" + device.name + ")";
    result.variant = "multitau";
    result.timings = session.timings();
    result.kernelMs = result.timings.kernelMs();
    return result;
}

} // namespace clscope::xpcs
