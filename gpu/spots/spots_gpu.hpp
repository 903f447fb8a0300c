// spots on OpenCL devices: variants local, direct, sat (DIALS dispersion) and extended
// (dispersion_extended) next to the host reference `cpu`. Signal masks come from the device;
// spots are grouped on the host from the mask (core/spots). Runs go through runAlgorithm()
// (gpu/algorithm.hpp): Algorithm::runWith runs the variant object it looks up in
// variantSet().
#pragma once
#include "core/spots/spots.hpp"
#include "core/timing.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/spots/window.hpp"
#include "gpu/variant/variant_set.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clscope::spots {

struct MaskRun {
    std::vector<std::uint8_t> signal;
    FramePixels pixels; // the signal pixels of each frame (unsorted), when known
    TimingStats timings;
    double kernelMs = 0;
    std::string note;    // e.g. why the tests are approximate, or a fallback taken
    int maskFetches = 0; // chunks whose list overflowed, so the whole mask was fetched
    std::optional<std::vector<Spot>> spots; // grouped while streaming (2-D runs of several chunks)
};

// What one spots run gives its variant; a support query may lack the input or the parameters.
struct Job {
    DeviceInfo device;
    const Input* input = nullptr;
    const Params* params = nullptr; // the run's tuning in params->tuning
    Progress progress{};
    ProgramOverrides programs{}; // the spots program (gpu/spots/recipes.hpp) is built with these
    MaskRun* details = nullptr;  // when given: the mask run behind the result
    bool group = true; // false: the signal pixels are not grouped (a band of a split frame)
};

// The variants, declared once (variants.cpp): cpu, local, direct, sat, extended. Each variant's
// accepts holds the whole check (the device's kind included, with spots' own reasons).
const VariantSet<Job, Result, Window>& variantSet();

// Whether a variant of these traits runs on the device (and, when given, with these
// parameters), with the reason.
Support supportsWindow(const Window& window, const DeviceInfo& device, const Params* params);

// The signal mask of the job's OpenCL variant (runner.cpp): its input, parameters and support
// (the run's tuning included) checked first, UsageError when it cannot run here.
MaskRun maskOnDevice(const Job& job, const Window& window);

// Signal mask of one OpenCL variant, by id (maskOnDevice). The device compacts the signal pixels
// into a list (one atomic per work-group) and only the list crosses the bus; when it overflows its
// capacity (tuning LIST_CAPACITY, default 1/16 of the pixels) the chunk's mask is fetched instead.
// UsageError when the variant cannot run here (with the reason), DeviceError for device trouble,
// Cancelled when cancelled. The spots program (gpu/spots/recipes.hpp) is built with `programs`
// applied: its tunable values over the host's, its source replaced when a fork is given.
MaskRun thresholdOnDevice(const DeviceInfo& device, const std::string& variant, const Input& in,
                          const Params& params, const Progress& progress = {},
                          const ProgramOverrides& programs = {});

} // namespace clscope::spots
