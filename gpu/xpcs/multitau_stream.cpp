// The OpenCL variant `multitau` over a file or memory: frames streamed once, front to back, in
// blocks of F frames through the device rings (multitau_rings.hpp). The blocks go up through
// pinned staging (gpu/runtime/staging.hpp, on every device: PoCL runs the path the GPU takes), or
// from the stack itself where it lies in pinned memory, the next blocks' copies overlapping block
// i's kernels (streamChunks).
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "gpu/runtime/staging.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/multitau_rings.hpp"

#include <algorithm>
#include <chrono>

namespace clscope::xpcs {

namespace {

constexpr int maxChannels = 64; // the kernel's private sums and local reduction

// Blocks queued ahead of the kernels: the host tuning MT_UPLOAD_DEPTH (>= 2), else `fallback`.
std::size_t streamDepth(const std::map<std::string, int>& tuning, std::size_t fallback) {
    const auto it = tuning.find("MT_UPLOAD_DEPTH");
    return it == tuning.end() ? fallback : static_cast<std::size_t>(std::max(2, it->second));
}

} // namespace

std::size_t multitauBlock(std::size_t pixels, std::size_t frameBytes, const DeviceInfo& device,
                          const std::map<std::string, int>& tuning) {
    if (const auto it = tuning.find("MT_FRAMES"); it != tuning.end())
        return static_cast<std::size_t>(std::max(1, it->second));
    // GPUs: 512 frames where they take at most 256 MiB (half the launches a frame of 256: the
    // H100's kernels of 16,384 512x1024 frames 144.5 ms against 155.5), else 256.
    std::size_t f = device.type != "GPU"                           ? 64
                    : 512 * frameBytes <= (std::size_t(256) << 20) ? 512
                                                                   : 256;
    while (f < 16384 && 2 * f * pixels * sizeof(std::int64_t) <= (std::size_t(4) << 20))
        f *= 2;
    return f;
}

void checkMultitauDevice(DType dtype, std::size_t frames, const LabelMask& mask,
                         const Params& params) {
    checkMultitau(dtype, frames, mask, params);
    if (params.channels > maxChannels)
        throw UsageError("xpcs multitau: --channels above " + std::to_string(maxChannels) +
                         " run on the cpu variant");
    if (dtype == DType::Float32 || dtype == DType::Float64)
        throw UsageError("xpcs variant 'multitau' cannot run this input: " +
                         multitauOverflow(dtype, 0, 0, frames, params.channels));
}

namespace {

// The rows of every frame this device receives: the whole frame, or a band's (a split by
// pixels, multitau_merge.hpp): each frame's band is one "row" of the upload, the frame its pitch.
struct FrameRows {
    std::size_t row0 = 0, rows = 0, width = 0, elem = 1;
    std::size_t frameSize() const { return rows * width; } // this device's frame, in values
    std::size_t offsetBytes() const { return row0 * width * elem; }
};

FrameRows frameRows(const FrameBlocks& frames, const MultitauBand* band) {
    const std::size_t row0 = band ? band->row0 : 0, row1 = band ? band->row1 : frames.height();
    return {row0, row1 - row0, frames.width(), dtypeSize(frames.dtype())};
}

} // namespace

Result correlateMultitauStream(const DeviceInfo& device, const FrameBlocks& frames,
                               const LabelMask& mask, const Params& params,
                               const Progress& progress, const ProgramOverrides& programs,
                               const MultitauBand* band) {
    const auto start = std::chrono::steady_clock::now();
    ClSession session(device);
    checkMultitauDevice(frames.dtype(), frames.frameCount(), mask, params);
    const DType d = frames.dtype();
    const std::size_t total = frames.frameCount(), wholeFrame = frames.height() * frames.width();
    const FrameRows here = frameRows(frames, band);
    const std::size_t frameSize = here.frameSize();
    // The labelled pixels set the block, counted here so that block 0 goes up before makeBins
    // (which counts them too) runs. A split's parts agree on the first part's block.
    const auto labelled = static_cast<std::size_t>(std::count_if(
        mask.labels.begin(), mask.labels.end(), [](std::int32_t l) { return l > 0; }));
    Result result;
    try {
        std::size_t block =
            multitauBlock(labelled, wholeFrame * dtypeSize(d), device, params.tuning);
        if (band) block = band->merge->agreeBlock(block);
        const std::size_t blocks = (total + block - 1) / block, blockBytes = block * frameSize;
        auto rowsOf = [&](std::size_t count) {
            return StreamUpload::Rows{count, frameSize * here.elem, wholeFrame * here.elem};
        };
        // uint8 frames in memory go up straight from the stack (every value <= 255: nothing to
        // scan), queued ahead where the device's DMA reads them; others are read and scanned.
        const std::byte* head =
            d == DType::UInt8 ? frames.inPlace(0, std::min(block, total)) : nullptr;
        const std::size_t depth =
            streamDepth(params.tuning,
                        head ? uploadDepth(session, head, std::min(block, total) * wholeFrame) : 2);
        StreamUpload upload(session, blockBytes * dtypeSize(d), "multitau frames", depth);
        std::vector<std::uint64_t> largest(upload.depth(), 255); // of the blocks sent
        auto countOf = [&](std::size_t index) { return std::min(block, total - index * block); };
        auto stage = [&](std::size_t index) {
            const std::size_t first = index * block, count = countOf(index);
            const std::byte* at = d == DType::UInt8 ? frames.inPlace(first, count) : nullptr;
            largest[index % upload.depth()] = 255;
            if (at)
                return upload.sendRows(index, at + here.offsetBytes(), rowsOf(count),
                                       "multitau upload", true);
            const Array copy = frames.read(first, count);
            largest[index % upload.depth()] = largestMagnitude(copy, mask);
            upload.sendRows(index, copy.bytes() + here.offsetBytes(), rowsOf(count),
                            "multitau upload", false);
        };
        // The first block goes up while the bins are made, the next ones (one to each buffer)
        // behind the rings' pixel lists while the rest of the rings is made (buffers, programs).
        const std::size_t sent = head ? std::min(upload.depth(), blocks) : 0;
        if (sent) stage(0);
        const Bins bins = band ? binsWithin(band->merge->bins(), here.row0 * here.width,
                                            (here.row0 + here.rows) * here.width)
                               : makeBins(mask);
        session.mark("bins made");
        MultitauRings rings(
            session, bins, params, d, frameSize, block, total, programs,
            [&] {
                for (std::size_t i = 1; i < sent; ++i)
                    stage(i);
                session.mark("first blocks queued");
            },
            band ? band->merge : nullptr);
        if (depth > 2) rings.foldOnEveryCore(); // DMA'd in place: no staging copy wants the cores
        session.timings().addHostPhase(
            "multitau set-up (host wall: bins, rings, buffers, programs)", msSince(start));
        session.mark("rings made");
        auto enqueue = [&](std::size_t index, const cl::Buffer& buffer) {
            rings.enqueue(buffer, countOf(index), largest[index % upload.depth()], total);
        };
        auto drain = [&](std::size_t index) { // block index - 1 done: this one runs on
            rings.completePrevious();
            session.mark("block done");
            progress.report(double(index * block) / double(total));
            progress.checkCancel();
        };
        const auto streaming = std::chrono::steady_clock::now();
        streamChunks(upload, blocks, stage, enqueue, drain, sent);
        session.finish();
        session.timings().addHostPhase("multitau blocks (host wall: uploads, kernels, folds)",
                                       msSince(streaming));
        const auto statistics = std::chrono::steady_clock::now();
        if (band) { // the merge gives the result once every part's blocks are in: part 0's
            rings.finishBlocks();
            band->merge->partDone();
            if (band->part == 0) result = band->merge->finish(total, params);
        } else {
            result = rings.finish(total, params);
        }
        session.mark("statistics done");
        session.timings().addHostPhase("multitau statistics (host wall: the last fold, g2)",
                                       msSince(statistics));
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "xpcs multitau", device);
    }
    session.mark("rings and uploads released");
    result.device = device.spec + " (" + device.name + ")";
    result.variant = "multitau";
    result.timings = session.timings();
    result.kernelMs = result.timings.kernelMs();
    return result;
}

} // namespace clscope::xpcs
