#include "ui/xpcs/xpcs_run.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"
#include "gpu/devices.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"

#include <cstring>

namespace clscope::ui {

xpcs::Params XpcsRunRequest::params() const {
    xpcs::Params p;
    p.twotimeLabels = twotimeLabels;
    p.frameTime = frameTime;
    return p;
}

std::size_t storedFrameCount(const H5Reader& file, const std::string& path) {
    try {
        if (!file.hasDataset(path)) return 0;
        const Shape shape = file.info(path).shape;
        return shape.size() == 3 ? shape[0] : shape.size() == 2 ? 1 : 0;
    } catch (const std::exception&) {
        return 0;
    }
}

namespace {

// Frames [first, first+count) copied out of a whole stack.
Array sliceFrames(const Array& all, std::size_t first, std::size_t count) {
    Array out(all.dtype(), {count, all.height(), all.width()});
    const std::size_t frameBytes = all.frameSize() * dtypeSize(all.dtype());
    std::memcpy(out.bytes(), all.bytes() + first * frameBytes, count * frameBytes);
    return out;
}

} // namespace

Array readFrameRange(const H5Reader& file, const std::string& path, std::size_t first, std::size_t count) {
    const bool plainStack = file.hasDataset(path) && file.info(path).shape.size() == 3;
    const std::size_t total = plainStack ? file.info(path).shape[0] : 0;
    if (plainStack) {
        if (first >= total) throw InputError(file.where(path) + ": first frame " + std::to_string(first) +
                                             " is past the last frame " + std::to_string(total - 1));
        const std::size_t n = count == 0 ? total - first : std::min(count, total - first);
        if (first == 0 && n == total) return readFrames(file, path);
        return file.readSlab(path, first, n);
    }
    // EIGER master links or one image: read everything, then keep the range.
    Array all = readFrames(file, path);
    const std::size_t frames = all.frameCount();
    if (first >= frames) throw InputError(file.where(path) + ": first frame " + std::to_string(first) +
                                          " is past the last frame " + std::to_string(frames - 1));
    const std::size_t n = count == 0 ? frames - first : std::min(count, frames - first);
    if (first == 0 && n == frames) return all;
    return sliceFrames(all, first, n);
}

void checkRequest(const XpcsRunRequest& request) {
    if (!request.file) throw InputError("no file is open: open one with File ▸ Open");
    if (request.framesPath.empty()) throw InputError("no frames: assign a frame stack in the Data panel");
    if (!request.labels) throw InputError("no q-bin labels: assign them in the Data panel or the mask editor");
    if (request.variants.empty()) throw InputError("check at least one variant that this device can run");
    const std::size_t total = storedFrameCount(*request.file, request.framesPath);
    if (total && request.firstFrame >= total)
        throw InputError("first frame " + std::to_string(request.firstFrame) + " is past the last frame " +
                         std::to_string(total - 1));
    if (!request.file->hasDataset(request.framesPath)) return; // EIGER links: checked when read
    const Shape shape = request.file->info(request.framesPath).shape;
    if (shape.size() >= 2 && (shape[shape.size() - 2] != request.labels->height ||
                              shape[shape.size() - 1] != request.labels->width))
        throw InputError("the q-bin labels are " + std::to_string(request.labels->height) + "×" +
                         std::to_string(request.labels->width) + " but the frames are " +
                         std::to_string(shape[shape.size() - 2]) + "×" + std::to_string(shape.back()));
}

Array loadFrames(const XpcsRunRequest& request) {
    checkRequest(request);
    return readFrameRange(*request.file, request.framesPath, request.firstFrame, request.frameCount);
}

xpcs::Result runVariant(const XpcsRunRequest& request, const std::string& variant, const Array& frames,
                        const Progress& progress) {
    return xpcs::correlate(deviceFor(request, variant), variant, frames, *request.labels, request.params(), progress);
}

DeviceInfo deviceFor(const XpcsRunRequest& request, const std::string& variant) {
    const VariantEntry& entry = VariantRegistry::instance().find("xpcs", variant);
    return entry.info.kind == VariantKind::Host && !request.device.isHost() ? hostDevice() : request.device;
}

std::vector<XpcsVariantOption> xpcsVariantOptions(const DeviceInfo& device) {
    std::vector<XpcsVariantOption> out;
    for (const VariantEntry& v : VariantRegistry::instance().variants("xpcs")) {
        const bool onHost = v.info.kind == VariantKind::Host && !device.isHost();
        const Support s = v.supports(onHost ? hostDevice() : device);
        out.push_back({v.info.id, v.info.label, s.ok, s.reason, onHost});
    }
    return out;
}

} // namespace clscope::ui
