// Plain description of a compute device, shared by the CLI and the GUI (no OpenCL headers).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace clscope {

struct DeviceInfo {
    std::string spec;     // "cpu" or "ocl:N"
    int index = -1;       // N for OpenCL devices, -1 for the host reference
    std::string platform; // e.g. "Portable Computing Language", "NVIDIA CUDA"
    std::string name;     // e.g. "NVIDIA H200"
    std::string vendor;
    std::string type;    // "GPU", "CPU", "accelerator", "host"
    std::string version; // device OpenCL version string
    std::string driver;  // driver version
    std::uint32_t computeUnits = 0;
    std::uint64_t globalMemBytes = 0, localMemBytes = 0, maxAllocBytes = 0;
    std::size_t maxWorkGroupSize = 0;
    std::vector<std::size_t> maxWorkItemSizes;
    bool fp64 = false;
    int nvComputeMajor = 0; // NVIDIA's compute capability, major (9: Hopper); 0 elsewhere
    bool isHost() const { return index < 0; }
    // Identity that survives re-ordering of devices: platform + device + driver name.
    std::string key() const { return platform + "|" + name + "|" + driver; }
    // One line as `clscope-cli devices` prints it.
    std::string summary() const;
};

} // namespace clscope
