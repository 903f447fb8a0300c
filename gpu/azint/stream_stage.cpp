#include "gpu/azint/stream_stage.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/session.hpp"

#include <algorithm>

namespace clscope::azint {

namespace {

// The result's first `frames` frames: a stream may end before the frames it announced.
void keepFrames(Result& r, std::size_t frames) {
    frames = std::min(frames, r.frames);
    const std::size_t cells = frames * r.azimuthBins * r.bins;
    r.frames = frames;
    for (auto* v : {&r.intensity, &r.error, &r.sumSignal, &r.sumNormalization})
        v->resize(std::min(v->size(), cells));
    r.count.resize(std::min(r.count.size(), cells));
}

} // namespace

AzintStreamStage::AzintStreamStage(RunRequest request, Params params, Method method,
                                   std::string variant)
    : request_(std::move(request)), params_(std::move(params)), method_(method),
      variant_(std::move(variant)) {}

bool AzintStreamStage::accepts(const pipeline::FrameFormat& format) const {
    return kernelsRead(format.dtype);
}

// Up to 512 MiB of frames a batch, 64 frames at most (as spots: a decode launch keeps the device
// busy).
std::size_t AzintStreamStage::batchFrames(const DeviceInfo& device,
                                          const pipeline::FrameFormat& format) const {
    const std::size_t bytes = std::max<std::size_t>(1, format.frameBytes());
    std::size_t batch = std::min<std::size_t>((std::size_t(512) << 20) / bytes, 64);
    batch = std::min<std::size_t>(batch, device.maxAllocBytes / bytes);
    const auto tuned = request_.tuning.find("AZ_CHUNK_FRAMES");
    if (tuned != request_.tuning.end() && tuned->second > 0)
        batch = std::min(batch, std::size_t(tuned->second));
    return std::max<std::size_t>(batch, 1);
}

void AzintStreamStage::open(ClSession& session, const InputSources& sources,
                            const pipeline::FrameFormat& format, std::size_t batch,
                            std::size_t frames) {
    beside_ = readBesideFrames(Algorithm(), sources, request_.params, format.height, format.width);
    // Shapes checked as a run checks them: no frame stands for the frames.
    beside_->data.frames = Array(format.dtype, {0, format.height, format.width});
    checkInput(beside_->data);
    const KernelSetup setup{request_.device,
                            method_,
                            &beside_->geometry,
                            &params_,
                            format.height,
                            format.width,
                            format.dtype,
                            &beside_->data.mask,
                            &beside_->data.pixelMask,
                            request_.programs,
                            request_.tuning};
    kernels_ = std::make_unique<DeviceKernels>(session, setup);
    kernels_->allocateSums(batch);
    frames_ = session.allocate(batch * format.frameBytes(), "azint stream frames");
    result_ = resultFor(kernels_->binning(), params_, frames);
}

void AzintStreamStage::process(std::size_t first, std::size_t count) {
    kernels_->launch(frames_, count);
    kernels_->fetch(result_, first, count);
}

// The other device's rows of sums for its frames.
void AzintStreamStage::absorb(pipeline::FrameStage& other,
                              const std::vector<pipeline::FrameRange>& ranges) {
    const Result& from = dynamic_cast<AzintStreamStage&>(other).result_;
    const std::size_t row = result_.azimuthBins * result_.bins;
    auto copyRows = [row](const auto& in, auto& out, const pipeline::FrameRange& r) {
        const auto begin = in.begin() + std::ptrdiff_t(r.first * row);
        std::copy(begin, begin + std::ptrdiff_t(r.count * row),
                  out.begin() + std::ptrdiff_t(r.first * row));
    };
    for (const pipeline::FrameRange& r : ranges) {
        copyRows(from.sumSignal, result_.sumSignal, r);
        copyRows(from.sumNormalization, result_.sumNormalization, r);
        copyRows(from.count, result_.count, r);
    }
}

std::shared_ptr<AlgorithmResult> AzintStreamStage::finish(std::size_t frames) {
    keepFrames(result_, frames);
    finishResult(result_);
    kernels_.reset(), frames_ = cl::Buffer();
    auto out = std::make_shared<AzintResult>();
    out->result = std::move(result_);
    out->info.algorithm = "azint", out->info.variant = variant_;
    return out;
}

} // namespace clscope::azint
