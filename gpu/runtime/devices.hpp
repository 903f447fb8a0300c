// Device enumeration and the device specs of DESIGN.md §2: cpu, ocl:N, ocl:TEXT.
#pragma once
#include "gpu/runtime/device_info.hpp"

#include <string>
#include <vector>

namespace clscope {

// The host reference device ("cpu") followed by every OpenCL device, in ocl:N order.
std::vector<DeviceInfo> listDevices();
// OpenCL devices only, in ocl:N order (cached after the first call).
const std::vector<DeviceInfo>& openclDevices();

// Resolve a spec; an empty spec means CLSCOPE_DEVICE, else the first GPU, else the first
// OpenCL device, else cpu. Throws DeviceError naming the spec and the devices there are.
DeviceInfo resolveDevice(const std::string& spec);
DeviceInfo hostDevice();
// A --device value that may name several devices: "ocl:0,ocl:1", or "gpus" for every GPU.
// One device for anything else (as resolveDevice). DeviceError when a name matches nothing.
std::vector<DeviceInfo> resolveDevices(const std::string& spec);

} // namespace clscope
