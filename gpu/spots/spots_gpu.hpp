// spots on OpenCL devices: variants local, direct, sat (DIALS dispersion) and extended
// (dispersion_extended) next to the host reference `cpu`. Signal masks come from the device;
// spots are grouped on the host from the mask (core/spots).
#pragma once
#include "core/spots/spots.hpp"
#include "core/timing.hpp"
#include "gpu/device_info.hpp"
#include "gpu/recipe.hpp"
#include "gpu/variant.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clscope::spots {

// Every variant id, the reference first.
const std::vector<std::string>& variantIds();
// One line for people per variant.
std::string variantLabel(const std::string& variant);
// Whether a variant runs on the device (and, when given, with these parameters).
Support supportsVariant(const std::string& variant, const DeviceInfo& device, const Params* params);
// The preferred variant for the device and the method (cpu on the host).
std::string preferredVariant(const DeviceInfo& device, Method method);

struct MaskRun {
    std::vector<std::uint8_t> signal;
    FramePixels pixels; // the signal pixels of each frame (unsorted), when known
    TimingStats timings;
    double kernelMs = 0;
    std::string note;    // e.g. why the tests are approximate, or a fallback taken
    int maskFetches = 0; // chunks whose list overflowed, so the whole mask was fetched
    std::optional<std::vector<Spot>> spots; // grouped while streaming (2-D runs of several chunks)
};

// Signal mask of one OpenCL variant. The device compacts the signal pixels into a list (one
// atomic per work-group) and only the list crosses the bus; when it overflows its capacity
// (tuning LIST_CAPACITY, default 1/16 of the pixels) the chunk's mask is fetched instead.
// UsageError when the variant cannot run here (with the reason), DeviceError for device trouble,
// Cancelled when cancelled. The spots program (gpu/spots/recipes.hpp) is built with `programs`
// applied: its tunable values over the host's, its source replaced when a fork is given.
MaskRun thresholdOnDevice(const DeviceInfo& device, const std::string& variant, const Input& in,
                          const Params& params, const Progress& progress = {},
                          const ProgramOverrides& programs = {});

// Signal mask and spots of any variant (cpu on the host reference). With `group` false the
// signal pixels are not grouped into spots (a band of a split frame: the join groups the whole).
Result findSpotsWith(const DeviceInfo& device, const std::string& variant, const Input& in,
                     const Params& params, const Progress& progress = {},
                     MaskRun* details = nullptr, bool group = true,
                     const ProgramOverrides& programs = {});

} // namespace clscope::spots
