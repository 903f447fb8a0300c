// A device's peaks for the kernel lab's roofline: global memory bytes/s and fp32 operations/s,
// which OpenCL has no query for, measured once by two small probe kernels (the recipe
// probe_peaks, resources/kernels/probe_peaks.cl: a float4 copy and multiply-add chains, the
// fastest of several launches each) and kept per device (DeviceInfo::key) in
// userVariantsRoot()/lab_peaks.json, beside the lab's sweep cache. They are what these probes
// reach, not the vendor's figures: a kernel can beat them (a copy is not the best pattern
// everywhere) and no kernel reaches a compute peak that needs another instruction mix.
#pragma once
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace clscope {

struct DevicePeaks {
    double bytesPerSecond = 0;      // probe_copy: bytes read + written / its best time
    double operationsPerSecond = 0; // probe_mad: 2 per multiply-add / its best time
    std::string measured;           // UTC date of the measurement
    bool known() const { return bytesPerSecond > 0 && operationsPerSecond > 0; }
};

nlohmann::json toJson(const DevicePeaks& peaks);
DevicePeaks devicePeaksFromJson(const nlohmann::json& j);

// The probes' program, declared like every other.
ProgramRecipe peaksRecipe();

// Runs the probes on the device now. DeviceError for device trouble.
DevicePeaks measurePeaks(const DeviceInfo& device);

class PeaksCache {
  public:
    explicit PeaksCache(std::filesystem::path file);
    // userVariantsRoot()/lab_peaks.json
    static std::filesystem::path defaultFile();
    // The peaks kept for the device; none when absent or unreadable.
    std::optional<DevicePeaks> find(const DeviceInfo& device) const;
    // Keeps the device's peaks (others kept as they are); errors writing are ignored.
    void store(const DeviceInfo& device, const DevicePeaks& peaks) const;

  private:
    std::filesystem::path file_;
};

// The device's peaks from the cache, measured (and kept) when absent or when `remeasure`.
DevicePeaks devicePeaks(const DeviceInfo& device, bool remeasure);

} // namespace clscope
