#include "gpu/xpcs/stream_stage.hpp"

#include "core/xpcs/multitau.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/multitau.hpp"

#include <algorithm>

namespace clscope::xpcs {

MultitauStreamStage::MultitauStreamStage(RunRequest request, Params params)
    : request_(std::move(request)), params_(std::move(params)) {
    params_.tuning = request_.tuning;
}

bool MultitauStreamStage::accepts(const pipeline::FrameFormat& format) const {
    return dtypeIsInteger(format.dtype);
}

std::size_t MultitauStreamStage::batchFrames(const DeviceInfo& device,
                                             const pipeline::FrameFormat& format) const {
    // The file run's block for frames labelled throughout (the labels are read in open()),
    // its frames within a quarter of the device's memory and one buffer.
    const std::size_t block =
        multitauBlock(format.height * format.width, format.frameBytes(), device, params_.tuning);
    const std::uint64_t room =
        std::min<std::uint64_t>(device.maxAllocBytes, device.globalMemBytes / 4);
    return std::max<std::size_t>(1, std::min<std::size_t>(block, room / format.frameBytes()));
}

void MultitauStreamStage::open(ClSession& session, const InputSources& sources,
                               const pipeline::FrameFormat& format, std::size_t batch,
                               std::size_t frames) {
    session_ = &session, total_ = frames;
    binning_ = readBinning(sources, format.height, format.width);
    if (!params_.frameTime) params_.frameTime = binning_->frameTime;
    // Shape, bins and frame time checked as a run checks them: one frame of zeros stands for
    // the frames (their values are checked on the device, scan_).
    checkInputs(Array(format.dtype, {1, format.height, format.width}), binning_->labels, params_);
    bins_ = makeBins(binning_->labels);
    checkMultitauDevice(format.dtype, frames, binning_->labels, params_);
    frames_ = session.allocate(batch * format.frameBytes(), "multitau stream frames");
    rings_ = std::make_unique<MultitauRings>(session, bins_, params_, format.dtype,
                                             format.height * format.width, batch, frames,
                                             request_.programs);
    scan_ = rings_->needsLargest(frames);
}

void MultitauStreamStage::process(std::size_t, std::size_t count) {
    if (scan_) rings_->scanLargest(frames_, count);
    rings_->enqueue(frames_, count, 0, total_);
    rings_->complete();
    // Values beyond the 64-bit sums' bound: refused as a file run refuses them (after the
    // batch ran here: its values were on the device only; no result is given).
    if (scan_) rings_->checkLargest(rings_->largestScanned(), total_);
}

std::shared_ptr<AlgorithmResult> MultitauStreamStage::finish(std::size_t frames) {
    auto out = std::make_shared<XpcsResult>();
    Result& r = out->result;
    r = rings_->finish(frames, params_);
    rings_.reset(), frames_ = cl::Buffer();
    r.twotimeBin = twotimeBinOf(frames, params_);
    r.device = request_.device.spec + " (" + request_.device.name + ")";
    r.variant = "multitau";
    r.timings = session_->timings();
    r.kernelMs = r.timings.kernelMs();
    out->excludedPixels = binning_->excludedPixels;
    addFits(*out, request_.params, binning_->qByLabel);
    out->info.algorithm = "xpcs", out->info.variant = "multitau";
    return out;
}

} // namespace clscope::xpcs
