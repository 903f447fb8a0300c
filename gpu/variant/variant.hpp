// Variant metadata: every algorithm lists its variants (the CPU reference too) through its
// Algorithm object (gpu/algorithm.hpp); the GUI, the CLI, the tests and the benchmarks iterate
// them.
#pragma once
#include "gpu/runtime/device_info.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace clscope {

enum class VariantKind { Host, OpenCL };

struct VariantInfo {
    std::string algorithm; // the algorithm id
    std::string id;        // e.g. "gemm"
    std::string label;     // one line for people
    VariantKind kind = VariantKind::OpenCL;
    std::string needs; // what it needs, e.g. "OpenCL 1.2, fp64"
    std::string defaultsJson = "{}";
    bool preferred = false; // the one to pick by default among those a device supports
    // The program recipes (gpu/recipe.hpp, by name) this variant builds; empty for a host one.
    std::vector<std::string> programs{};
};

struct Support {
    bool ok = true;
    std::string reason; // why not, when !ok
};

struct VariantEntry {
    VariantInfo info;
    // Device-specific limits beyond the kind (fp64, local memory, ...); may be empty.
    std::function<Support(const DeviceInfo&)> extraCheck;
    // A -D tuning NAME under which the variant runs emulated on any OpenCL device (NAME=1: its
    // device-only path checked where that device is absent, e.g. in the tests); "" for none.
    std::string emulation{};
    // Whether this variant can run on the device, with the reason when it cannot.
    Support supports(const DeviceInfo& device) const;
    // Whether the tuning asks for the emulation and the device is an OpenCL one.
    bool emulatedOn(const DeviceInfo& device, const std::map<std::string, int>& tuning) const;
};

} // namespace clscope
