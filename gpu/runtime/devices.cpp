#include "gpu/runtime/devices.hpp"

#include "core/errors.hpp"
#include "gpu/runtime/opencl.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace clscope {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\0' || s.back() == ' '))
        s.pop_back();
    return s;
}

std::string typeName(cl_device_type t) {
    if (t & CL_DEVICE_TYPE_GPU) return "GPU";
    if (t & CL_DEVICE_TYPE_CPU) return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

DeviceInfo describe(const cl::Platform& platform, const cl::Device& d, int index) {
    DeviceInfo info;
    info.index = index;
    info.spec = "ocl:" + std::to_string(index);
    info.platform = trim(platform.getInfo<CL_PLATFORM_NAME>());
    info.name = trim(d.getInfo<CL_DEVICE_NAME>());
    info.vendor = trim(d.getInfo<CL_DEVICE_VENDOR>());
    info.type = typeName(d.getInfo<CL_DEVICE_TYPE>());
    info.version = trim(d.getInfo<CL_DEVICE_VERSION>());
    info.driver = trim(d.getInfo<CL_DRIVER_VERSION>());
    info.computeUnits = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    info.globalMemBytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    info.localMemBytes = d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    info.maxAllocBytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    info.maxWorkGroupSize = d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    info.maxWorkItemSizes = d.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
    info.fp64 = d.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
    if (d.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_device_attribute_query") !=
        std::string::npos) {
        cl_uint major = 0;
        if (clGetDeviceInfo(d(), CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                            nullptr) == CL_SUCCESS)
            info.nvComputeMajor = static_cast<int>(major);
    }
    return info;
}

std::vector<DeviceInfo> enumerate() {
    std::vector<DeviceInfo> out;
    for (const auto& [platform, device] : clDevicePairs())
        out.push_back(describe(platform, device, static_cast<int>(out.size())));
    return out;
}

std::string available() {
    std::string s = "cpu";
    for (const DeviceInfo& d : openclDevices())
        s += ", " + d.spec + " (" + d.name + ")";
    return s;
}

} // namespace

std::vector<std::pair<cl::Platform, cl::Device>> clDevicePairs() {
    std::vector<std::pair<cl::Platform, cl::Device>> out;
    std::vector<cl::Platform> platforms;
    try {
        cl::Platform::get(&platforms);
    } catch (const cl::Error&) {
        return out; // no ICD installed: only the host reference is left
    }
    for (const cl::Platform& p : platforms) {
        std::vector<cl::Device> devices;
        try {
            p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
        } catch (const cl::Error&) {
            continue;
        }
        for (const cl::Device& d : devices)
            out.emplace_back(p, d);
    }
    return out;
}

std::string DeviceInfo::summary() const {
    if (isHost())
        return spec + "  " + name + "  [" + type + ", " + std::to_string(computeUnits) +
               " threads]";
    const auto mib = [](std::uint64_t b) { return std::to_string(b >> 20) + " MiB"; };
    return spec + "  " + name + "  [" + type + ", " + platform + ", " + version + ", " +
           std::to_string(computeUnits) + " CUs, " + mib(globalMemBytes) + " global, " +
           std::to_string(localMemBytes >> 10) + " KiB local, fp64 " + (fp64 ? "yes" : "no") + "]";
}

const std::vector<DeviceInfo>& openclDevices() {
    static std::once_flag once;
    static std::vector<DeviceInfo> devices;
    std::call_once(once, [] { devices = enumerate(); });
    return devices;
}

DeviceInfo hostDevice() {
    DeviceInfo info;
    info.spec = "cpu";
    info.name = "host CPU reference (C++ threads)";
    info.platform = "clscope";
    info.vendor = "clscope";
    info.type = "host";
    info.computeUnits = std::max(1u, std::thread::hardware_concurrency());
    info.globalMemBytes = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                          static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
    info.maxAllocBytes = info.globalMemBytes;
    info.fp64 = true;
    return info;
}

std::vector<DeviceInfo> listDevices() {
    std::vector<DeviceInfo> out{hostDevice()};
    for (const DeviceInfo& d : openclDevices())
        out.push_back(d);
    return out;
}

DeviceInfo resolveDevice(const std::string& requested) {
    std::string spec = requested;
    if (spec.empty()) {
        const char* env = std::getenv("CLSCOPE_DEVICE");
        spec = env ? env : "";
    }
    const auto& devices = openclDevices();
    if (spec.empty()) {
        for (const DeviceInfo& d : devices)
            if (d.type == "GPU") return d;
        return devices.empty() ? hostDevice() : devices.front();
    }
    if (lower(spec) == "cpu") return hostDevice();
    if (spec.rfind("ocl:", 0) != 0)
        throw DeviceError("device '" + spec +
                          "': expected cpu, ocl:N or ocl:TEXT; available: " + available());
    const std::string rest = spec.substr(4);
    if (rest.empty())
        throw DeviceError("device 'ocl:': expected ocl:N or ocl:TEXT; available: " + available());
    if (std::all_of(rest.begin(), rest.end(), ::isdigit)) {
        const std::size_t n = rest.size() <= 6 ? std::stoul(rest) : SIZE_MAX; // no overflow
        if (n < devices.size()) return devices[n];
        throw DeviceError("device '" + spec +
                          "': no such OpenCL device; available: " + available());
    }
    for (const DeviceInfo& d : devices)
        if (lower(d.name).find(lower(rest)) != std::string::npos) return d;
    throw DeviceError("device '" + spec + "': no OpenCL device name contains '" + rest +
                      "'; available: " + available());
}

std::vector<DeviceInfo> resolveDevices(const std::string& spec) {
    std::vector<DeviceInfo> out;
    if (lower(spec) == "gpus") {
        for (const DeviceInfo& d : openclDevices())
            if (d.type == "GPU") out.push_back(d);
        if (out.empty())
            throw DeviceError("device 'gpus': no OpenCL GPU found; available: " + available());
        return out;
    }
    std::size_t start = 0;
    while (start <= spec.size()) {
        const std::size_t comma = std::min(spec.find(',', start), spec.size());
        if (comma == start && spec.size() > 0) // "," or "ocl:0,": not the default device
            throw DeviceError("device '" + spec + "': an empty device in the list");
        out.push_back(resolveDevice(spec.substr(start, comma - start)));
        start = comma + 1;
    }
    return out;
}

} // namespace clscope
