// One OpenCL device with its context, its cache of built programs and its pinned memory.
#pragma once
#include "gpu/recipe.hpp"
#include "gpu/runtime/buffer_pool.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/runtime/opencl.hpp"
#include "gpu/runtime/program_store.hpp"

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace clscope {

// A program the device has built: the hash of its source text, the options it was asked with
// (the cache's key), the program, the resolved tunable values of the recipe it was built
// from (what its -D options say; empty for a program built from no recipe) and the log of its
// build from source (kept with it in the disk cache: a program loaded from there has the log of
// the build that made its binary).
struct BuiltProgram {
    std::size_t sourceHash = 0;
    std::string options;
    cl::Program program;
    TunableValues values;
    std::string buildLog;
};

// Where ClDevice::fetch found a program: its in-process cache, the disk cache of compiled
// programs (gpu/runtime/program_store.hpp) or a build from source.
enum class ProgramOrigin { memory, disk, source };
struct FetchedProgram {
    cl::Program program;
    ProgramOrigin origin = ProgramOrigin::memory;
};

// How many programs a device has built from source and loaded from the disk cache.
struct ProgramCounts {
    std::size_t fromSource = 0, fromDisk = 0;
};

// Pinned host memory (CL_MEM_ALLOC_HOST_PTR) mapped for writing by the host.
struct PinnedBlock {
    cl::Buffer buffer;
    void* host = nullptr;
    std::size_t bytes = 0;
};

// One OpenCL device with its context and its cache of built programs, shared by every
// session on that device (cached per device index for the life of the process).
class ClDevice {
  public:
    static std::shared_ptr<ClDevice> get(const DeviceInfo& info);
    ClDevice(const DeviceInfo& info);

    const DeviceInfo& info() const { return info_; }
    const cl::Device& device() const { return device_; }
    const cl::Context& context() const { return context_; }
    // Build (or fetch) a program from one source text and options; a failed build throws a
    // DeviceError carrying the device, the options and the build log. `values`: the resolved
    // tunables of the recipe the options were made from, kept with the built program.
    // A program not in the process's cache comes from the disk cache of compiled programs when
    // it holds one for this device, source and options, else from a build (then kept there).
    cl::Program program(const std::string& source, const std::string& options,
                        const TunableValues& values = {});
    // program(), saying where the program came from.
    FetchedProgram fetch(const std::string& source, const std::string& options,
                         const TunableValues& values = {});
    ProgramCounts programCounts() const;
    std::size_t cachedPrograms() const;
    // Every program built so far (the cache), in key order.
    std::vector<BuiltProgram> builtPrograms() const;
    // Options appended to every later build of this device (the kernel lab's -cl-nv-verbose).
    void appendBuildOptions(const std::string& options);
    // Pinned host memory of at least `bytes` (mapped through `queue` when new), lent until the
    // last copy of the pointer goes, then kept for the next borrower: pinning is slow.
    std::shared_ptr<PinnedBlock> pinned(std::size_t bytes, cl::CommandQueue& queue);
    // Whether [data, data + bytes) lies in one block pinned() has made (blocks live for the
    // process): uploads from there need no copy into staging.
    bool holdsPinned(const void* data, std::size_t bytes) const;
    // Whether this device's DMA reads [data, data + bytes) straight from the host: a block of
    // its own pinned(), or on NVIDIA one another device of the platform made (page-locked
    // memory serves every context of the process's one address space); CLSCOPE_PINNED_SHARED=0
    // keeps to its own blocks, to compare.
    bool dmaReads(const void* data, std::size_t bytes) const;
    // Buffers of finished sessions kept for the next ones (see gpu/runtime/buffer_pool.hpp).
    BufferPool& buffers() { return buffers_; }

  private:
    using ProgramKey = std::tuple<std::size_t, std::string>; // hash of the source, options
    struct Made {
        cl::Program program;
        std::string buildLog;
        ProgramOrigin origin;
    };
    Made make(const std::string& source, const std::string& options);
    std::optional<Made> loadStored(const ProgramStore& store, const std::string& key);
    std::string storeKey(const std::string& source, const std::string& options) const;
    std::string loadOptions(const std::string& options) const;
    cl::Program buildNew(const std::string& source, const std::string& options);
    cl::Program built(cl::Program program, const std::string& options);

    DeviceInfo info_;
    cl::Device device_;
    cl::Context context_;
    mutable std::mutex mutex_;
    std::string appendedOptions_;
    std::string deviceKey_; // what of the device changes a binary (ProgramStore's key)
    ProgramCounts counts_;
    std::map<ProgramKey, BuiltProgram> programs_;
    std::map<ProgramKey, std::shared_future<cl::Program>> building_;
    std::vector<std::unique_ptr<PinnedBlock>> pinnedFree_;
    std::vector<std::pair<const std::byte*, std::size_t>> pinnedMade_; // host ranges of blocks
    BufferPool buffers_;
};

// Build option capping the registers of a work-item of a program's kernels on NVIDIA's OpenCL
// (-cl-nv-maxrregcount, more work-groups resident at once); empty on other platforms.
std::string registerCap(const DeviceInfo& device, int registers);

// The binary of a program's one device (CL_PROGRAM_BINARIES: PoCL's own format, PTX text with
// a trailing NUL on NVIDIA); empty when it has none.
std::string binaryOf(const cl::Program& program);

// Turn a cl::Error into a DeviceError that says what was being done and on which device.
[[noreturn]] void rethrowDeviceError(const cl::Error& e, const std::string& what,
                                     const DeviceInfo& device);

} // namespace clscope
