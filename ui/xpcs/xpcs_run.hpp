// What one press of Run asks for (Qt-free): frames, labels and pixel mask, the frame range, the
// frame time, the variant, the device and the two-time bin; and the xpcs::XpcsInput and parameter
// set it makes for runAlgorithm() (read on the job runner's worker thread), with the provenance
// that reproduces the run.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/hdf5.hpp"
#include "core/input/frame_range.hpp"
#include "core/progress.hpp"
#include "core/xpcs/xpcs.hpp"
#include "gpu/command_line.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/variant/variant.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "ui/kit/variant_combo.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

struct XpcsRunRequest {
    std::shared_ptr<const H5Reader> file;
    std::string framesPath;
    std::shared_ptr<const LabelMask> labels;
    std::string labelsOrigin;  // "mask editor" or "FILE:/path"
    std::string pixelMaskPath; // in `file`; empty: none
    std::size_t firstFrame = 0;
    std::size_t frameCount = 0;      // 0: to the last frame
    std::optional<double> frameTime; // seconds, typed in the form; else read() takes the file's
    std::string variant;
    DeviceInfo device;
    std::vector<std::int32_t> twotimeLabels;
    ParamSet form; // the panel form's values (empty: the defaults)
    // The xpcs parameter set: the form's, with frame_time and twotime.
    ParamSet params() const;
    // The clscope-cli run of the same input and parameters (labels drawn in the mask editor
    // are held in memory: no command line names them).
    RunCommand command() const;
};

// Frames in a dataset (T of (T,H,W), 1 for an image), a CSR layout (DESIGN.md §3) or a Rigaku
// .bin file (its scan); 0 when it cannot be told (an event list without a bin width).
// An event list's (docs/SPARSE.md): ⌊last time / Δ⌋ + 1 for the bin width `eventFrameTime`
// (seconds; 0 without one), from its last time stamp alone.
std::size_t storedFrameCount(const H5Reader& file, const std::string& path,
                             std::optional<double> eventFrameTime = std::nullopt);
// What can be told before reading the frames: a file, frames and labels of the same image
// size, a frame range inside the stack. Throws InputError.
void checkRequest(const XpcsRunRequest& request);
// Why the dataset at path, within `range`, has too few frames for xpcs (its frames role's
// minFrames, the rule the run checks: tooFewFrames); empty when not (or not told before reading).
std::string framesRefusal(const H5Reader& file, const std::string& path,
                          const FrameRange& range = {});
// The frame range, the labels with the pixel mask applied, and the provenance: file, dataset
// paths, labels origin, pixel mask, frame range.
// Read through the xpcs Algorithm::read, as clscope-cli correlate reads the same sources.
std::shared_ptr<const AlgorithmInput> loadInput(const XpcsRunRequest& request);
// The frame time and the q table of the request's input as clscope-cli correlate reads them
// (xpcs::readPhysicalValues: units honoured), with where each came from (frameTimeOrigin,
// qOrigin); none of q for labels drawn in the mask editor. InputError for a bad units attribute.
std::shared_ptr<xpcs::XpcsInput> readPhysical(const XpcsRunRequest& request);
// The sources Algorithm::read takes: those of request.command(), with labels drawn in the mask
// editor held in memory (InputSources::arrays["labels"]).
InputSources inputSources(const XpcsRunRequest& request);

// A variant the checklist offers: enabled with the device's verdict. Host variants (the CPU
// reference) are always offered: they run on the host, next to the OpenCL device's variants.
using XpcsVariantOption = VariantChoice;
std::vector<VariantChoice> xpcsVariantOptions(const DeviceInfo& device, const ParamSet& params);
// The device a variant of the request runs on: the host for host variants, else the request's.
DeviceInfo deviceFor(const XpcsRunRequest& request, const std::string& variant);

} // namespace clscope::ui
