// What one press of Run asks for (Qt-free): frames and labels, the frame range, the frame
// time, the variants to run one after another, the device and the two-time bin. Reading the
// frame range and running one variant happen on the job runner's worker thread.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/hdf5.hpp"
#include "core/progress.hpp"
#include "core/xpcs/xpcs.hpp"
#include "gpu/device_info.hpp"
#include "gpu/variant.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

struct XpcsRunRequest {
    std::shared_ptr<const H5Reader> file;
    std::string framesPath;
    std::shared_ptr<const LabelMask> labels;
    std::size_t firstFrame = 0;
    std::size_t frameCount = 0;          // 0: to the last frame
    std::optional<double> frameTime;     // seconds; the override, else the file's
    std::vector<std::string> variants;   // run in this order; the first is the reference
    DeviceInfo device;
    std::vector<std::int32_t> twotimeLabels;
    xpcs::Params params() const;
};

// Frames in a dataset (T of (T,H,W), 1 for an image); 0 when it cannot be told.
std::size_t storedFrameCount(const H5Reader& file, const std::string& path);
// Frames [first, first+count) (count 0: to the end); InputError when outside the dataset.
Array readFrameRange(const H5Reader& file, const std::string& path, std::size_t first, std::size_t count);
// What can be told before reading the frames: a file, frames and labels of the same image
// size, a frame range inside the stack, at least one variant. Throws InputError.
void checkRequest(const XpcsRunRequest& request);
// The frame range of a request, read once for all its variants.
Array loadFrames(const XpcsRunRequest& request);
// One variant on the request's device.
xpcs::Result runVariant(const XpcsRunRequest& request, const std::string& variant, const Array& frames,
                        const Progress& progress);

// A variant the checklist offers: enabled with the device's verdict. Host variants (the CPU
// reference) are always offered: they run on the host, next to the OpenCL device's variants.
struct XpcsVariantOption {
    std::string id, label;
    bool enabled = true;
    std::string reason;
    bool onHost = false; // runs on the host rather than the chosen device
};
std::vector<XpcsVariantOption> xpcsVariantOptions(const DeviceInfo& device);
// The device a variant of the request runs on: the host for host variants, else the request's.
DeviceInfo deviceFor(const XpcsRunRequest& request, const std::string& variant);

} // namespace clscope::ui
