#include "gpu/runtime/cl_device.hpp"

#include "core/errors.hpp"
#include "core/sha256.hpp"
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

// NVIDIA's binary, PTX text, up to its first NUL.
std::string ptxOf(const cl::Program& program) {
    const std::string binary = binaryOf(program);
    return binary.substr(0, binary.find('\0'));
}

bool isNvidia(const DeviceInfo& info) {
    return info.platform.find("NVIDIA") != std::string::npos;
}

// What of a device changes the binaries it builds: its name, vendor, driver and OpenCL
// version, its platform's name and version.
std::string deviceKeyOf(const DeviceInfo& info, const cl::Device& device) {
    // The C call: opencl.hpp's getInfo<CL_DEVICE_PLATFORM> gives cl_platform_id in some
    // versions of the header and cl::Platform in others (the lent GPU machine's).
    cl_platform_id id = nullptr;
    clGetDeviceInfo(device(), CL_DEVICE_PLATFORM, sizeof(id), &id, nullptr);
    const cl::Platform platform(id, true);
    return "device: " + info.name + " | " + info.vendor + " | " + info.driver + " | " +
           info.version + "\nplatform: " + info.platform + " | " +
           platform.getInfo<CL_PLATFORM_VERSION>() + "\n";
}

} // namespace

std::string binaryOf(const cl::Program& program) {
    const cl::Program::Binaries binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.empty()) return {};
    return std::string(binaries.front().begin(), binaries.front().end());
}

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
    if (!isNvidia(info_) || (shared && std::string(shared) == "0")) return false;
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
        deviceKey_ = deviceKeyOf(info, device_);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "creating an OpenCL context", info);
    }
}

std::string registerCap(const DeviceInfo& device, int registers) {
    if (!isNvidia(device)) return "";
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
    return fetch(source, givenOptions, values).program;
}

FetchedProgram ClDevice::fetch(const std::string& source, const std::string& givenOptions,
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
        if (auto it = programs_.find(key); it != programs_.end()) return {it->second.program};
        if (auto it = building_.find(key); it != building_.end())
            other = it->second;
        else
            building_.emplace(key, promise.get_future().share());
    }
    if (other.valid()) return {other.get()};
    // Built outside the lock: other programs build at the same time (OpenCL builds of distinct
    // program objects may run on several threads).
    try {
        Made made = make(source, options);
        std::lock_guard lock(mutex_);
        programs_.emplace(
            key, BuiltProgram{std::get<0>(key), options, made.program, values, made.buildLog});
        (made.origin == ProgramOrigin::disk ? counts_.fromDisk : counts_.fromSource)++;
        building_.erase(key);
        promise.set_value(made.program);
        return {made.program, made.origin};
    } catch (...) {
        std::lock_guard lock(mutex_);
        building_.erase(key);
        promise.set_exception(std::current_exception());
        throw;
    }
}

// From the disk cache when it holds the program, else built from source and kept there.
ClDevice::Made ClDevice::make(const std::string& source, const std::string& options) {
    const std::optional<ProgramStore> store = ProgramStore::fromEnvironment();
    const std::string key = store ? storeKey(source, options) : "";
    std::optional<Made> made = store ? loadStored(*store, key) : std::nullopt;
    if (!made) {
        made = Made{buildNew(source, options), "", ProgramOrigin::source};
        made->buildLog = made->program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
        if (const std::string binary = binaryOf(made->program); store && !binary.empty())
            store->save({key, loadOptions(options), made->buildLog, binary});
    }
    if (const char* log = std::getenv("CLSCOPE_CL_LOG"); log && std::string(log) == "1")
        std::cerr << "build log (" << info_.spec << ", " << options
                  << (made->origin == ProgramOrigin::disk ? ", from the program cache" : "")
                  << "):\n"
                  << made->buildLog << "\n";
    return *made;
}

// The stored program built from its binary; nullopt (the entry removed) when that fails.
std::optional<ClDevice::Made> ClDevice::loadStored(const ProgramStore& store,
                                                   const std::string& key) {
    const std::optional<ProgramEntry> entry = store.load(key);
    if (!entry) return std::nullopt;
    try {
        const cl::Program::Binaries binaries{{entry->binary.begin(), entry->binary.end()}};
        cl::Program program(context_, {device_}, binaries);
        program.build({device_}, entry->loadOptions.c_str());
        return Made{program, entry->buildLog, ProgramOrigin::disk};
    } catch (const cl::Error& e) {
        store.discard(key, std::string("its binary does not build (") + clErrorName(e.err()) + ")");
        return std::nullopt;
    }
}

// Everything that changes the binary: the device and its driver, the source (all of it), the
// options (CLSCOPE_CL_OPTIONS and appended ones included) and the version of what clscope does
// to a binary (the architecture-specific rebuild).
std::string ClDevice::storeKey(const std::string& source, const std::string& options) const {
    return "clscope program key 1, arch-specific rebuild 1\n" + deviceKey_ +
           "source: " + sha256Hex(source) + "\noptions: " + options + "\n";
}

// The options of a stored binary's build: on NVIDIA, where the binary is PTX, those acting on
// its translation (as for the architecture-specific rebuild); elsewhere all of them.
std::string ClDevice::loadOptions(const std::string& options) const {
    return isNvidia(info_) ? archSpecificOptions(options) : options;
}

cl::Program ClDevice::buildNew(const std::string& source, const std::string& options) {
    cl::Program program = built(cl::Program(context_, source), options);
    if (isNvidia(info_) && source.find(archSpecificMark) != std::string::npos)
        if (const auto ptx = archSpecificPtx(ptxOf(program))) {
            if (const char* dump = std::getenv("CLSCOPE_CL_DUMP"))
                std::ofstream(std::string(dump) + "/program-" +
                              std::to_string(std::hash<std::string>{}(options)) + ".ptx")
                    << *ptx;
            const cl::Program::Binaries binaries{{ptx->begin(), ptx->end()}};
            program =
                built(cl::Program(context_, {device_}, binaries), archSpecificOptions(options));
        }
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

ProgramCounts ClDevice::programCounts() const {
    std::lock_guard lock(mutex_);
    return counts_;
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
