// xpcs as an Algorithm: roles, parameters, reading, run, compare and write.
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/facets.hpp"

#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "core/input/metadata.hpp"
#include "core/input/provenance.hpp"
#include "core/input/units.hpp"
#include "core/mask/mask_io.hpp"
#include "core/sparse/rigaku_frames.hpp"
#include "core/xpcs/fit_params.hpp"
#include "core/xpcs/frames_read.hpp"
#include "core/xpcs/multitau_sparse.hpp"
#include "core/xpcs/normalisation.hpp"
#include "core/xpcs/result_sums.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/multitau_merge.hpp"
#include "gpu/xpcs/recipes.hpp"
#include "gpu/xpcs/runner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::xpcs {

std::string XpcsInput::describe() const {
    if (!frames) return describeBlocks(*blocks, labels.bins().size());
    return std::to_string(frames->frameCount()) + " frames of " + std::to_string(frames->height()) +
           "x" + std::to_string(frames->width()) + " " + dtypeName(frames->dtype()) + ", " +
           std::to_string(labels.bins().size()) + " bins";
}

void XpcsResult::write(H5Writer& out, const std::string& group) const {
    writeResultData(out, result, group);
    writeProvenance(out, group, {info.device, info.variant, info.parametersJson, info.kernelMs});
    out.setAttribute(group, "excluded_pixels", static_cast<double>(excludedPixels));
    if (fits) writeFits(out, *fits, group, result.tauInSeconds);
    // q of the bins whenever the labels have it (DESIGN.md §3), not only with --fit
    if (!qByLabel.empty() && (!fits || fits->q.empty()))
        writeBinQ(out, binQ(qByLabel, result.labels), group);
    if (sums) writeResultSums(out, *sums, group);
}

std::string XpcsResult::summary() const {
    return "g2 of " + std::to_string(result.binCount()) + " bins x " +
           std::to_string(result.frames) + " lags, " + std::to_string(excludedPixels) +
           " labelled pixels excluded by the pixel mask";
}

Algorithm::Algorithm() : TypedAlgorithm({"xpcs", "XPCS correlator g2(q, τ)", "correlate"}) {
    for (auto facet : {splitFacet(), passesFacet(), streamFacet(), syntheticFacet(), benchFacet(),
                       labFacet(), layoutsFacet(), resultReaderFacet(), resultCommandsFacet()})
        add(std::move(facet));
}

std::vector<InputRole> Algorithm::inputRoles() const {
    InputRole labels = makeRole("labels", "--mask", paths::qmask,
                                "q-bin labels FILE[:PATH] (default: the input's)");
    labels.otherFile = true, labels.layout = InputRole::Layout::IntegerImage;
    labels.title = "q-bin labels", labels.hints = {"qmask", "label", "roi"};
    InputRole mask = makeRole(
        "pixel_mask", "--pixel-mask", paths::pixelMask,
        "Bad-pixel mask FILE[:PATH], non-zero = excluded (default: the input's, when present)");
    mask.optional = true, mask.otherFile = true, mask.disableFlag = "--no-pixel-mask";
    mask.layout = InputRole::Layout::IntegerImage, mask.title = "pixel mask";
    mask.hints = {"pixel_mask", "mask"};
    InputRole frameTime = makeRole("frame_time", "", paths::frameTime, "Seconds per frame");
    frameTime.optional = true;
    InputRole frames = makeRole("frames", "--data", paths::frames, "Frames dataset (T,H,W)");
    frames.stack = true, frames.layout = InputRole::Layout::Frames, frames.title = "frames / image";
    frames.minFrames = 2; // a correlation needs a pair of frames
    return {frames, labels, mask, frameTime};
}

std::vector<ParamSpec> Algorithm::parameterSpecs() const {
    using T = ParamSpec::Type;
    ParamSpec frameTime = makeParam(
        "frame_time", T::Double, nullptr,
        "Seconds per frame (default: the file's frame_time; τ in frames without one)", "s");
    frameTime.label = "Frame time", frameTime.min = 1e-12, frameTime.flag = "--frame-time";
    ParamSpec twotime = makeParam("twotime", T::IntList, nlohmann::json::array(),
                                  "Labels whose two-time maps C(t1,t2) are written");
    twotime.label = "Two-time bins", twotime.min = 1, twotime.flag = "--twotime";
    ParamSpec chunk =
        makeParam("chunk_pixels", T::Int, 0,
                  "At most this many labelled pixels per device pass (0: as memory allows)", "px");
    chunk.label = "Pixels per pass", chunk.min = 0, chunk.flag = "--chunk-pixels",
    chunk.advanced = true;
    ParamSpec threads =
        makeParam("threads", T::Int, 0,
                  "cpu and sparse-cpu: worker threads; sparse-pairs: its host steps' threads (0: "
                  "all cores)");
    threads.label = "CPU threads", threads.min = 0, threads.max = 4096, threads.advanced = true;
    ParamSpec sums = makeParam("keep_sums", T::Bool, true,
                               "Keep the correlator's sums (/xpcs/sums/*, /xpcs/intensity_vs_time: "
                               "a host pass over the frames) that average needs");
    sums.label = "Keep sums", sums.advanced = true;
    std::vector<ParamSpec> specs{frameTime, twotime, chunk,
                                 threads,   sums,    normalisationParamSpec()};
    for (ParamSpec& spec : fitParamSpecs()) // core/xpcs/fit_params.hpp
        specs.push_back(std::move(spec));
    for (ParamSpec& spec : multitauParamSpecs())
        specs.push_back(std::move(spec));
    return specs;
}

std::vector<VariantEntry> Algorithm::variants() const {
    return variantSet().entries();
}

std::vector<ProgramRecipe> Algorithm::recipes() const {
    return xpcs::recipes();
}

std::size_t applyPixelMask(LabelMask& labels, const PixelMask& pixelMask) {
    std::size_t removed = 0;
    for (std::size_t i = 0; i < labels.labels.size(); ++i)
        if (pixelMask.bad[i] && labels.labels[i] > 0) labels.labels[i] = 0, ++removed;
    return removed;
}

std::shared_ptr<XpcsInput> makeInput(Array frames, LabelMask labels, nlohmann::json provenance) {
    auto input = std::make_shared<XpcsInput>();
    input->frames = std::make_shared<const Array>(std::move(frames));
    input->labels = std::move(labels);
    input->provenance = provenance.is_object() ? provenance : nlohmann::json::object();
    input->largest = largestMagnitude(*input->frames, input->labels);
    for (std::int64_t n : makeBins(input->labels).pixelCounts)
        input->mostPixels = std::max(input->mostPixels, n);
    return input;
}

Support Algorithm::supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                                const XpcsInput* in, const Params* params) const {
    // mma on frames other than uint8 runs gemm (Modes::bytesElseBy): gemm's checks apply.
    const auto* v = variantSet().get(variant.info.id);
    if (v && !v->traits.bytesElseBy.empty() && in && in->frames &&
        in->frames->dtype() != DType::UInt8)
        return supportsWith(this->variant(v->traits.bytesElseBy), device, in, params);
    const Job job{device, in, params};
    return variantSet().supports(variant, device, &job);
}

namespace {

// Labels held in memory (InputSources::arrays, e.g. drawn in the GUI's mask editor): a 2-d
// integer array of the frames' size.
LabelMask heldLabels(const Array& a, std::size_t height, std::size_t width) {
    if (a.rank() != 2 || !dtypeIsInteger(a.dtype()) || a.height() != height || a.width() != width)
        throw InputError("the q-bin labels held in memory are " + shapeString(a.shape()) + " " +
                         dtypeName(a.dtype()) + "; the frames need (" + std::to_string(height) +
                         ", " + std::to_string(width) + ") integers");
    LabelMask m{height, width, std::vector<std::int32_t>(a.size())};
    for (std::size_t i = 0; i < a.size(); ++i)
        m.labels[i] = static_cast<std::int32_t>(a.valueAt(i));
    return m;
}

} // namespace

std::shared_ptr<XpcsInput> readBinning(const InputSources& s, std::size_t height,
                                       std::size_t width) {
    const Algorithm algorithm;
    const InputRole framesRole = algorithm.role("frames"), labelsRole = algorithm.role("labels"),
                    maskRole = algorithm.role("pixel_mask");
    const DataLocation framesAt = s.locate(framesRole), labelsAt = s.locate(labelsRole);
    auto in = std::make_shared<XpcsInput>();
    const auto held = s.arrays.find(labelsRole.id);
    const bool inMemory = held != s.arrays.end() && held->second;
    const auto labelFile = s.open(inMemory ? framesAt.file : labelsAt.file);
    in->labels = inMemory ? heldLabels(*held->second, height, width)
                          : readLabels(*labelFile, labelsAt.path, height, width);
    std::vector<InputRole> read{framesRole, labelsRole};
    const DataLocation maskAt = s.locate(maskRole);
    const bool chosen = s.overrides.count("pixel_mask") > 0;
    if (!s.disabled.count("pixel_mask")) {
        const auto maskFile = s.open(maskAt.file);
        if (chosen || maskFile->hasObject(maskAt.path)) { // a group there: refused
            in->excludedPixels =
                applyPixelMask(in->labels, readPixelMask(*maskFile, maskAt.path, height, width));
            read.push_back(maskRole);
        }
    }
    in->provenance = inputProvenance(s, read);
    in->provenance["excluded_pixels"] = in->excludedPixels;
    readPhysicalValues(*in, *s.open(framesAt.file), s.locate(algorithm.role("frame_time")).path,
                       *labelFile);
    if (inMemory) { // the file's q table describes the file's labels
        in->qByLabel.clear();
        in->qOrigin.clear();
    }
    return in;
}

void readPhysicalValues(XpcsInput& in, const H5Reader& frameFile, const std::string& frameTimePath,
                        const H5Reader& labelFile) {
    if (const auto t = units::readFrameTime(frameFile, frameTimePath)) {
        in.frameTime = t->value;
        in.frameTimeOrigin = t->origin();
    }
    // q of the labels (qmask_q, nm^-1 unless its units say otherwise) in 1/Å.
    if (const auto centers = mask::readLabelCenters(labelFile)) {
        const units::DatasetUnit unit = units::datasetUnit(
            labelFile, mask::paths::qmaskQ, units::Quantity::InverseLength, 0.1, "1/nm (pyFAI)");
        for (std::size_t i = 0; i < centers->labelIds.size(); ++i)
            // Divided (nm^-1: by 10, as before units were read): q bit for bit as it was.
            in.qByLabel[centers->labelIds[i]] = centers->q[i] / (1.0 / unit.factor);
        in.qOrigin = unit.unit + (unit.fromFile ? " (file)" : " (no units attribute: the default)");
    }
}

std::shared_ptr<XpcsInput> withFrames(const XpcsInput& binning, Array frames, LabelMask labels) {
    auto in = makeInput(std::move(frames), std::move(labels), binning.provenance);
    in->excludedPixels = binning.excludedPixels;
    in->frameTime = binning.frameTime;
    in->qByLabel = binning.qByLabel;
    in->frameTimeOrigin = binning.frameTimeOrigin, in->qOrigin = binning.qOrigin;
    return in;
}

void refuseOnStream(const InputSources& s, const ParamSet& params) {
    if (!s.live) return;
    if (!params.boolean("multitau"))
        throw UsageError("correlate on a stream is multi-tau: add --multitau (dense lags need "
                         "every frame twice)");
    if (params.text("g2_normalisation") != "frame")
        throw UsageError("--g2-normalisation symmetric on a stream: it needs the bins' frame "
                         "sums (a second pass over the frames); run it on a file");
    if (!params.intList("twotime").empty())
        throw UsageError("--twotime on a stream: the two-time maps need a second pass over the "
                         "frames; run them on a file");
}

std::shared_ptr<const AlgorithmInput> Algorithm::read(const InputSources& s,
                                                      const ParamSet& params) const {
    const InputRole framesRole = role("frames");
    const DataLocation framesAt = s.locate(framesRole);
    refuseOnStream(s, params);
    if (params.boolean("multitau")) return readStreamed(s);
    const auto input = s.open(framesAt.file);
    Array frames;
    if (s.frames.all() && !RigakuFrames::named(framesAt.file)) {
        frames = readFramesParallel(*input, framesAt.file, framesAt.path, 0, s.frameTime);
    } else { // --frames: only those
        const auto stream = openFrames(s, framesRole);
        if (stream->isStack()) frames = stream->read(0, stream->frameCount());
    }
    if (frames.rank() != 3)
        throw InputError(input->where(framesAt.path) + ": xpcs needs a (T,H,W) frame stack");
    const auto binning = readBinning(s, frames.height(), frames.width());
    LabelMask labels = std::move(binning->labels);
    return withFrames(*binning, std::move(frames), std::move(labels));
}

// q (1/Å) of each result bin from the input's label table; empty when it has none.
std::vector<double> binQ(const std::map<std::int32_t, double>& qByLabel,
                         const std::vector<std::int32_t>& labels) {
    if (qByLabel.empty()) return {};
    std::vector<double> q;
    for (std::int32_t l : labels) {
        const auto it = qByLabel.find(l);
        q.push_back(it == qByLabel.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
    }
    return q;
}

Params Algorithm::parameters(const ParamSet& p) const {
    Params out;
    for (long long l : p.intList("twotime"))
        out.twotimeLabels.push_back(static_cast<std::int32_t>(l));
    if (p.has("frame_time")) out.frameTime = p.number("frame_time");
    out.chunkPixels = static_cast<std::size_t>(p.integer("chunk_pixels"));
    out.threads = static_cast<unsigned>(p.integer("threads"));
    out.multitau = p.boolean("multitau");
    out.channels = static_cast<int>(p.integer("channels"));
    out.twotimeBin = static_cast<std::size_t>(p.integer("twotime_bin"));
    out.normalisation = normalisationNamed(p.text("g2_normalisation"));
    out.keepSums = p.boolean("keep_sums");
    return out;
}

std::shared_ptr<XpcsResult> Algorithm::runWith(const RunRequest& request, const XpcsInput& in,
                                               Params params, const Progress& progress) const {
    params.tuning = request.tuning;
    if (!params.frameTime) params.frameTime = in.frameTime;
    if (const auto fit = fitOptionsFrom(request.params)) // before the run: flow needs q
        requireFitInput(*fit, !in.qByLabel.empty());
    auto out = std::make_shared<XpcsResult>();
    out->excludedPixels = in.excludedPixels;
    out->result = variantSet()
                      .find(request.variant)
                      .run({request.device, &in, &params, progress, request.programs});
    if (!in.band || in.band->part == 0) { // a split's other parts: part 0 gives the result
        addSums(*out, in, params);
        addFits(*out, request.params, in.qByLabel);
    }
    out->info.timings = out->result.timings.records();
    out->info.entries = out->result.entries;
    return out;
}

// Whether a symmetric run's g2_err comes from the per-pixel sums: cpu's, and sparse-cpu's dense
// lags (which give cpu's result); the other variants scale the frame definition's.
namespace {

bool errorsFromPixels(const Result& r) {
    return r.variant == "cpu" || (r.variant == "sparse-cpu" && !r.multitau);
}

} // namespace

void addSums(XpcsResult& out, const XpcsInput& in, const Params& params) {
    const auto blocks = in.frames ? blocksInMemory(in.frames) : in.blocks;
    if (!blocks) return; // frames that went by (a stream): no second pass, no sums
    if (!params.keepSums && params.normalisation == Normalisation::Frame) return;
    const FrameSums frameTotals = frameSums(*blocks, in.labels);
    const std::vector<LagSums> lags = lagSums(frameTotals, out.result);
    applyNormalisation(out.result, lags, *blocks, in.labels, params.normalisation,
                       errorsFromPixels(out.result));
    if (params.keepSums)
        out.sums = std::make_shared<const ResultSums>(resultSums(frameTotals, lags, out.result));
}

void addFits(XpcsResult& out, const ParamSet& params,
             const std::map<std::int32_t, double>& qByLabel) {
    out.qByLabel = qByLabel;
    if (const auto options = fitOptionsFrom(params)) {
        out.fitOptions = options;
        out.fits = fitBins(out.result, *options, binQ(qByLabel, out.result.labels));
    }
}

} // namespace clscope::xpcs
