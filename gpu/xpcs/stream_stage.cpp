#include "gpu/xpcs/stream_stage.hpp"

#include "core/xpcs/multitau.hpp"
#include "core/xpcs/multitau_sparse.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/live_choice.hpp"
#include "gpu/xpcs/multitau.hpp"

#include <algorithm>
#include <numeric>

namespace clscope::xpcs {

MultitauStreamStage::MultitauStreamStage(RunRequest request, Params params, Path path)
    : request_(std::move(request)), params_(std::move(params)), path_(path) {
    params_.tuning = request_.tuning;
}

bool MultitauStreamStage::accepts(const pipeline::FrameFormat& format) const {
    if (path_ == Path::Sparse) return format.live && dtypeIsUnsigned(format.dtype);
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
    session_ = &session, total_ = frames, format_ = format, batch_ = batch;
    where_ = sources.file;
    binning_ = readBinning(sources, format.height, format.width);
    if (!params_.frameTime) params_.frameTime = binning_->frameTime;
    // Shape, bins and frame time checked as a run checks them: one frame of zeros stands for
    // the frames (their values are checked on the device, scan_ and the compaction's totals).
    checkInputs(Array(format.dtype, {1, format.height, format.width}), binning_->labels, params_);
    bins_ = makeBins(binning_->labels);
    checkMultitau(format.dtype, frames, binning_->labels, params_);
    // The rule is a live stream's, of counts (a file's frames go as the file run's rule says).
    if (path_ == Path::Auto && !(format.live && dtypeIsUnsigned(format.dtype))) path_ = Path::Dense;
    frames_ = session.allocate(batch * format.frameBytes(), "multitau stream frames");
    if (path_ == Path::Dense) openDense();
    if (path_ == Path::Sparse) openSparse();
    if (path_ == Path::Auto) // its kernels built with the rest; the rings once it has chosen
        compaction_ = std::make_unique<FrameCompaction>(
            session, bins_, format.dtype, format.height * format.width, request_.programs);
}

void MultitauStreamStage::openDense() {
    checkMultitauDevice(format_.dtype, total_, binning_->labels, params_);
    rings_ = std::make_unique<MultitauRings>(*session_, bins_, params_, format_.dtype,
                                             format_.height * format_.width, batch_, total_,
                                             request_.programs);
    scan_ = rings_->needsLargest(total_);
}

void MultitauStreamStage::openSparse() {
    checkSparseInput(format_.dtype, "sparse");
    const std::size_t frameSize = format_.height * format_.width;
    block_ = SparseRings::blockFor(bins_.pixelIndex.size(), total_, params_.channels,
                                   session_->info(), params_.tuning);
    sparse_ = std::make_unique<SparseRings>(*session_, bins_, params_, format_.dtype, frameSize,
                                            block_, request_.programs);
    if (!compaction_)
        compaction_ = std::make_unique<FrameCompaction>(*session_, bins_, format_.dtype, frameSize,
                                                        request_.programs);
}

// The share of the first batch's labelled pixels that are not zero, counted on the device,
// against the crossover measured on files (core/xpcs/multitau_sparse.hpp): sparse below it,
// unless frames of its largest counts, binned over the run's frames, would be beyond the
// sparse rings' 64-bit products (they would refuse the run there; the dense rings' sums are
// bounded by values, not counts).
void MultitauStreamStage::choose(std::size_t count) {
    const DeviceBlock counted = compaction_->count(frames_, 0, count);
    const std::uint64_t nonZero =
        std::accumulate(counted.entries.begin(), counted.entries.end(), std::uint64_t(0));
    const std::uint64_t most = *std::max_element(counted.totals.begin(), counted.totals.end());
    const double occupancy = double(nonZero) / (double(count) * double(compaction_->positions()));
    const LiveChoice c =
        liveChoice(occupancy, most, total_, "in the first " + std::to_string(count) + " frames");
    note_ = c.note;
    path_ = c.sparse ? Path::Sparse : Path::Dense;
    if (path_ == Path::Sparse) {
        openSparse();
        return;
    }
    compaction_.reset();
    openDense();
}

void MultitauStreamStage::process(std::size_t first, std::size_t count) {
    if (path_ == Path::Auto) choose(count);
    if (path_ == Path::Sparse)
        processSparse(first, count);
    else
        processDense(count);
}

void MultitauStreamStage::processDense(std::size_t count) {
    if (scan_) rings_->scanLargest(frames_, count);
    rings_->enqueue(frames_, count, 0, total_);
    rings_->complete();
    // Values beyond the 64-bit sums' bound: refused as a file run refuses them (after the
    // batch ran here: its values were on the device only; no result is given).
    if (scan_) rings_->checkLargest(rings_->largestScanned(), total_);
}

// The batch in blocks of the sparse rings: each one's frames counted, checked (add) and
// compacted on the device, then correlated from there.
void MultitauStreamStage::processSparse(std::size_t first, std::size_t count) {
    for (std::size_t i = 0; i < count; i += block_) {
        const std::size_t n = std::min(block_, count - i);
        DeviceBlock block = compaction_->count(frames_, i, n);
        block.first = first + i, block.where = where_;
        compaction_->compact(frames_, i, block);
        entries_ += std::accumulate(block.entries.begin(), block.entries.end(), std::uint64_t(0));
        sparse_->add(block);
    }
    sparse_->complete(); // the frame buffer is the next batch's once this returns
}

std::shared_ptr<AlgorithmResult> MultitauStreamStage::finish(std::size_t frames) {
    if (path_ == Path::Auto) openDense(); // no batch came: the dense rings' empty result
    const bool sparse = path_ == Path::Sparse;
    const std::string variant = sparse ? "sparse" : "multitau";
    auto out = std::make_shared<XpcsResult>();
    Result& r = out->result;
    r = sparse ? sparse_->finish(frames, params_) : rings_->finish(frames, params_);
    rings_.reset(), sparse_.reset(), compaction_.reset(), frames_ = cl::Buffer();
    r.twotimeBin = twotimeBinOf(frames, params_);
    r.device = request_.device.spec + " (" + request_.device.name + ")";
    r.variant = variant;
    r.entries = sparse ? entries_ : 0;
    r.timings = session_->timings();
    r.kernelMs = r.timings.kernelMs();
    out->excludedPixels = binning_->excludedPixels;
    addFits(*out, request_.params, binning_->qByLabel);
    out->info.algorithm = "xpcs", out->info.variant = variant;
    out->info.entries = r.entries;
    return out;
}

} // namespace clscope::xpcs
