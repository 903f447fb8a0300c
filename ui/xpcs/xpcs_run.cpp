#include "ui/xpcs/xpcs_run.hpp"
#include "core/input/frame_reading.hpp"

#include "core/errors.hpp"
#include "core/input/frame_range.hpp"
#include "core/io.hpp"
#include "core/sparse/rigaku_frames.hpp"
#include "core/sparse/sparse_location.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"
#include "ui/jobs/algorithm_run.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace clscope::ui {

ParamSet XpcsRunRequest::params() const {
    ParamSet p =
        form.specs().empty() ? AlgorithmRegistry::instance().find("xpcs").defaultParams() : form;
    if (frameTime) p.set("frame_time", *frameTime);
    p.set("twotime", nlohmann::json(twotimeLabels));
    return p;
}

RunCommand XpcsRunRequest::command() const {
    RunCommand c;
    c.algorithm = "xpcs";
    c.sources.file = file ? file->fileName() : std::string();
    c.sources.overrides["frames"] = framesPath;
    c.sources.frames = {firstFrame, frameCount};
    c.sources.frameTime = frameTime; // also the width of an event list's frames (DESIGN.md §3)
    if (labelsOrigin.find(":/") != std::string::npos)
        c.sources.overrides["labels"] = labelsOrigin; // FILE:/path
    else
        c.sources.arrays["labels"] = nullptr;
    if (pixelMaskPath.empty())
        c.sources.disabled.insert("pixel_mask");
    else
        c.sources.overrides["pixel_mask"] = c.sources.file + ":" + pixelMaskPath;
    c.device = device.spec, c.variant = variant;
    c.params = params();
    return c;
}

std::size_t storedFrameCount(const H5Reader& file, const std::string& path,
                             std::optional<double> eventFrameTime) {
    try {
        // A Rigaku .bin file (its roles file has no objects): its words' frames, scanned once.
        if (RigakuFrames::named(file.fileName())) return RigakuFrames(file.fileName()).frameCount();
        if (!file.hasDataset(path)) { // the CSR layout: frame_ptr holds T + 1 (docs/SPARSE.md)
            const auto sparse = findSparse(file, path);
            if (sparse && sparse->kind == SparseLocation::Kind::Events)
                return eventFrameTime
                           ? eventFrameCount(file, sparse->group, binWidthNs(eventFrameTime, path))
                           : 0;
            if (!sparse) return 0;
            const Shape ptr = file.info(sparse->group + "/frame_ptr").shape;
            return ptr.size() == 1 && ptr[0] > 0 ? ptr[0] - 1 : 0;
        }
        const Shape shape = file.info(path).shape;
        return shape.size() == 3 ? shape[0] : shape.size() == 2 ? 1 : 0;
    } catch (const std::exception&) {
        return 0;
    }
}

std::string framesRefusal(const H5Reader& file, const std::string& path, const FrameRange& range) {
    if (!file.hasDataset(path)) return {}; // EIGER links: checked when read
    Shape shape;
    try {
        shape = file.info(path).shape;
    } catch (const std::exception&) {
        return {};
    }
    if (shape.size() != 2 && shape.size() != 3) return {};
    const bool single = shape.size() == 2;
    const std::uint64_t frames = single ? 1 : range.framesIn(shape[0]);
    const clscope::Algorithm& xpcs = AlgorithmRegistry::instance().find("xpcs");
    return tooFewFrames(xpcs.role("frames"), xpcs.id(), path, frames, single);
}

void checkRequest(const XpcsRunRequest& request) {
    if (!request.file) throw InputError("no file is open: open one with File ▸ Open");
    if (request.framesPath.empty())
        throw InputError("no frames: assign a frame stack in the Data panel");
    if (!request.labels)
        throw InputError("no q-bin labels: assign them in the Data panel or the mask editor");
    const FrameRange range{request.firstFrame, request.frameCount};
    if (const std::string why = framesRefusal(*request.file, request.framesPath, range);
        !why.empty())
        throw InputError(why + (range.all() ? "" : " (set Count to 0 for all frames)"));
    if (!request.file->hasDataset(request.framesPath)) return; // EIGER links: checked when read
    const Shape shape = request.file->info(request.framesPath).shape;
    if (shape.size() >= 2 && (shape[shape.size() - 2] != request.labels->height ||
                              shape[shape.size() - 1] != request.labels->width))
        throw InputError("the q-bin labels are " + std::to_string(request.labels->height) + "×" +
                         std::to_string(request.labels->width) + " but the frames are " +
                         std::to_string(shape[shape.size() - 2]) + "×" +
                         std::to_string(shape.back()));
}

InputSources inputSources(const XpcsRunRequest& request) {
    InputSources sources = request.command().sources;
    if (sources.arrays.count("labels") && request.labels) { // drawn: the labels on screen
        const LabelMask& l = *request.labels;
        Array held(DType::Int32, {l.height, l.width});
        std::copy(l.labels.begin(), l.labels.end(), held.as<std::int32_t>().begin());
        sources.arrays["labels"] = std::make_shared<const Array>(std::move(held));
    }
    return sources;
}

std::shared_ptr<xpcs::XpcsInput> readPhysical(const XpcsRunRequest& request) {
    auto in = std::make_shared<xpcs::XpcsInput>();
    if (!request.file) return in;
    const InputSources s = inputSources(request);
    const clscope::Algorithm& algorithm = AlgorithmRegistry::instance().find("xpcs");
    const bool held = s.arrays.count("labels") > 0;
    const auto labelFile = s.open(held ? s.file : s.locate(algorithm.role("labels")).file);
    xpcs::readPhysicalValues(*in, *s.open(s.file), s.locate(algorithm.role("frame_time")).path,
                             *labelFile);
    if (held) { // the file's q table describes the file's labels
        in->qByLabel.clear();
        in->qOrigin.clear();
    }
    return in;
}

std::shared_ptr<const AlgorithmInput> loadInput(const XpcsRunRequest& request) {
    checkRequest(request);
    return AlgorithmRegistry::instance().find("xpcs").read(inputSources(request), request.params());
}

DeviceInfo deviceFor(const XpcsRunRequest& request, const std::string& variant) {
    return variantDevice(AlgorithmRegistry::instance().find("xpcs"), variant, request.device);
}

std::vector<VariantChoice> xpcsVariantOptions(const DeviceInfo& device, const ParamSet& params) {
    return variantChoices(AlgorithmRegistry::instance().find("xpcs"), device, nullptr, &params);
}

} // namespace clscope::ui
