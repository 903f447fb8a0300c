// Variant metadata: every algorithm lists its variants (the CPU reference too) through its
// Algorithm object (gpu/algorithm.hpp); the GUI, the CLI, the tests and the benchmarks iterate
// them.
#pragma once
#include "gpu/device_info.hpp"

#include <functional>
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
};

struct Support {
    bool ok = true;
    std::string reason; // why not, when !ok
};

struct VariantEntry {
    VariantInfo info;
    // Device-specific limits beyond the kind (fp64, local memory, ...); may be empty.
    std::function<Support(const DeviceInfo&)> extraCheck;
    // Whether this variant can run on the device, with the reason when it cannot.
    Support supports(const DeviceInfo& device) const;
};

} // namespace clscope
