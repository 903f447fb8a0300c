#include "gpu/runtime/cl_device.hpp"

#include "core/errors.hpp"
#include "gpu/kernel_source.hpp"
#include "gpu/runtime/arch_specific.hpp"
#include "gpu/runtime/compiler_output.hpp"
#include "gpu/runtime/devices.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>

namespace clscope {

namespace {

cl::Device findDevice(const DeviceInfo& info) {
    const auto pairs = clDevicePairs();
    if (info.index >= 0 && static_cast<std::size_t>(info.index) < pairs.size())
        return pairs[info.index].second;
    throw DeviceError("OpenCL device " + info.spec + " (" + info.name + ") is gone");
}

// The program binary of its one device (NVIDIA's is PTX text), up to its first NUL.
std::string ptxOf(const cl::Program& program) {
    const cl::Program::Binaries binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.empty()) return {};
    const auto& b = binaries.front();
    return std::string(b.begin(), std::find(b.begin(), b.end(), 0));
}

} // namespace

void rethrowDeviceError(const cl::Error& e, const std::string& what, const DeviceInfo& device) {
    std::string reason = clErrorName(e.err());
    if (e.err() == CL_MEM_OBJECT_ALLOCATION_FAILURE || e.err() == CL_OUT_OF_RESOURCES ||
        e.err() == CL_OUT_OF_HOST_MEMORY || e.err() == CL_INVALID_BUFFER_SIZE)
        reason += ": out of device memory or resources";
    throw DeviceError(what + " failed on " + device.spec + " (" + device.name + "): " + e.what() +
                      " " + reason);
}

namespace {

// The process's devices, one each (ClDevice::get).
struct DeviceRegistry {
    std::mutex mutex;
    std::map<int, std::shared_ptr<ClDevice>> devices;
};
DeviceRegistry& registry() {
    static DeviceRegistry r;
    return r;
}

} // namespace

std::shared_ptr<ClDevice> ClDevice::get(const DeviceInfo& info) {
    if (info.isHost()) throw DeviceError("the host reference 'cpu' has no OpenCL context");
    DeviceRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    auto& slot = r.devices[info.index];
    if (!slot) slot = std::make_shared<ClDevice>(info);
    return slot;
}

bool ClDevice::dmaReads(const void* data, std::size_t bytes) const {
    if (holdsPinned(data, bytes)) return true;
    const char* shared = std::getenv("CLSCOPE_PINNED_SHARED");
    if (info_.platform.find("NVIDIA") == std::string::npos ||
        (shared && std::string(shared) == "0"))
        return false;
    DeviceRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    return std::any_of(r.devices.begin(), r.devices.end(), [&](const auto& d) {
        return d.second.get() != this && d.second->info().platform == info_.platform &&
               d.second->holdsPinned(data, bytes);
    });
}

ClDevice::ClDevice(const DeviceInfo& info)
    : info_(info), buffers_(info.type == "GPU", info.globalMemBytes) {
    try {
        device_ = findDevice(info);
        context_ = cl::Context(device_);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "creating an OpenCL context", info);
    }
}

std::string registerCap(const DeviceInfo& device, int registers) {
    if (device.platform.find("NVIDIA") == std::string::npos) return "";
    return " -cl-nv-maxrregcount=" + std::to_string(registers);
}

// Kernel developers: CLSCOPE_CL_OPTIONS is appended to every build's options (e.g.
// -cl-nv-verbose), CLSCOPE_CL_LOG=1 prints each new program's build log to stderr (and lets
// the compiler's own summary lines through: gpu/runtime/compiler_output.hpp). A source with
// architecture-specific instructions (gpu/runtime/arch_specific.hpp) is built twice on NVIDIA: for
// the plain target, then from its PTX made specific (CLSCOPE_CL_DUMP=folder writes that PTX there,
// program-<hash of the options>.ptx, for ptxas and cuobjdump).
cl::Program ClDevice::program(const std::string& source, const std::string& givenOptions,
                              const TunableValues& values) {
    const char* extra = std::getenv("CLSCOPE_CL_OPTIONS");
    std::promise<cl::Program> promise;
    std::shared_future<cl::Program> other; // the same program, being built by another thread
    std::string options;
    ProgramKey key;
    {
        std::lock_guard lock(mutex_);
        options = givenOptions + (extra ? std::string(" ") + extra : "") + appendedOptions_;
        key = std::make_tuple(std::hash<std::string>{}(source), options);
        if (auto it = programs_.find(key); it != programs_.end()) return it->second.program;
        if (auto it = building_.find(key); it != building_.end())
            other = it->second;
        else
            building_.emplace(key, promise.get_future().share());
    }
    if (other.valid()) return other.get();
    // Built outside the lock: other programs build at the same time (OpenCL builds of distinct
    // program objects may run on several threads).
    try {
        cl::Program program = buildNew(source, options);
        std::lock_guard lock(mutex_);
        programs_.emplace(key, BuiltProgram{std::get<0>(key), options, program, values});
        building_.erase(key);
        promise.set_value(program);
        return program;
    } catch (...) {
        std::lock_guard lock(mutex_);
        building_.erase(key);
        promise.set_exception(std::current_exception());
        throw;
    }
}

cl::Program ClDevice::buildNew(const std::string& source, const std::string& options) {
    cl::Program program = built(cl::Program(context_, source), options);
    if (info_.platform.find("NVIDIA") != std::string::npos &&
        source.find(archSpecificMark) != std::string::npos)
        if (const auto ptx = archSpecificPtx(ptxOf(program))) {
            if (const char* dump = std::getenv("CLSCOPE_CL_DUMP"))
                std::ofstream(std::string(dump) + "/program-" +
                              std::to_string(std::hash<std::string>{}(options)) + ".ptx")
                    << *ptx;
            const cl::Program::Binaries binaries{{ptx->begin(), ptx->end()}};
            program =
                built(cl::Program(context_, {device_}, binaries), archSpecificOptions(options));
        }
    if (const char* log = std::getenv("CLSCOPE_CL_LOG"); log && std::string(log) == "1")
        std::cerr << "build log (" << info_.spec << ", " << options << "):\n"
                  << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_) << "\n";
    return program;
}

cl::Program ClDevice::built(cl::Program program, const std::string& options) {
    try {
        const CompilerOutput compilerOutput; // PoCL's "N warnings generated." off the terminal
        program.build({device_}, options.c_str());
    } catch (const cl::Error& e) {
        std::string log;
        try {
            log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
        } catch (const cl::Error&) {
            log = "(no build log)";
        }
        throw DeviceError("kernel build failed on " + info_.spec + " (" + info_.name +
                          ") with options '" + options + "': " + clErrorName(e.err()) +
                          "\nbuild log:\n" + log);
    }
    return program;
}

std::size_t ClDevice::cachedPrograms() const {
    std::lock_guard lock(mutex_);
    return programs_.size();
}

std::vector<BuiltProgram> ClDevice::builtPrograms() const {
    std::lock_guard lock(mutex_);
    std::vector<BuiltProgram> built;
    for (const auto& [key, program] : programs_)
        built.push_back(program);
    return built;
}

void ClDevice::appendBuildOptions(const std::string& options) {
    std::lock_guard lock(mutex_);
    appendedOptions_ += " " + options;
}

std::shared_ptr<PinnedBlock> ClDevice::pinned(std::size_t bytes, cl::CommandQueue& queue) {
    std::unique_ptr<PinnedBlock> block;
    {
        std::lock_guard lock(mutex_);
        for (auto it = pinnedFree_.begin(); it != pinnedFree_.end(); ++it)
            if ((*it)->bytes >= bytes) {
                block = std::move(*it);
                pinnedFree_.erase(it);
                break;
            }
    }
    if (!block) {
        block = std::make_unique<PinnedBlock>();
        block->bytes = bytes;
        block->buffer = cl::Buffer(context_, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY, bytes);
        block->host =
            queue.enqueueMapBuffer(block->buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
        std::lock_guard lock(mutex_);
        pinnedMade_.emplace_back(static_cast<const std::byte*>(block->host), bytes);
    }
    return std::shared_ptr<PinnedBlock>(block.release(), [this](PinnedBlock* given) {
        std::lock_guard lock(mutex_);
        pinnedFree_.emplace_back(given);
    });
}

bool ClDevice::holdsPinned(const void* data, std::size_t bytes) const {
    const auto at = reinterpret_cast<std::uintptr_t>(data);
    std::lock_guard lock(mutex_);
    return std::any_of(pinnedMade_.begin(), pinnedMade_.end(), [&](const auto& block) {
        const auto begin = reinterpret_cast<std::uintptr_t>(block.first);
        return at >= begin && bytes <= block.second && at - begin <= block.second - bytes;
    });
}

} // namespace clscope
