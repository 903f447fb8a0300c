// OpenCL context, program cache, checked launches and labelled profiling.
#pragma once
#include "core/timing.hpp"
#include "gpu/buffer_pool.hpp"
#include "gpu/device_info.hpp"
#include "gpu/opencl.hpp"
#include "gpu/recipe.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace clscope {

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
    // DeviceError carrying the device, the options and the build log.
    cl::Program program(const std::string& source, const std::string& options);
    std::size_t cachedPrograms() const;
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
    // Buffers of finished sessions kept for the next ones (see gpu/buffer_pool.hpp).
    BufferPool& buffers() { return buffers_; }

  private:
    cl::Program built(cl::Program program, const std::string& options);

    DeviceInfo info_;
    cl::Device device_;
    cl::Context context_;
    mutable std::mutex mutex_;
    std::map<std::tuple<std::size_t, std::string>, cl::Program> programs_;
    std::vector<std::unique_ptr<PinnedBlock>> pinnedFree_;
    std::vector<std::pair<const std::byte*, std::size_t>> pinnedMade_; // host ranges of blocks
    BufferPool buffers_;
};

// Build option capping the registers of a work-item of a program's kernels on NVIDIA's OpenCL
// (-cl-nv-maxrregcount, more work-groups resident at once); empty on other platforms.
std::string registerCap(const DeviceInfo& device, int registers);

// Work-group layout of a launch, before rounding.
struct LaunchShape {
    std::vector<std::size_t> global; // work-items wanted per dimension
    std::vector<std::size_t> local;  // work-group size per dimension
};

// A profiling queue on one device plus the timings of what ran on it.
class ClSession {
  public:
    explicit ClSession(const DeviceInfo& info);
    // Waits for everything queued (errors ignored): no command can outlive the host memory
    // or buffers it uses, also when an exception unwinds the run. Then gives the device's
    // buffer pool the session's buffers that nothing else holds.
    ~ClSession();
    ClSession(const ClSession&) = delete;
    ClSession& operator=(const ClSession&) = delete;

    const DeviceInfo& info() const { return device_->info(); }
    ClDevice& device() { return *device_; }
    const cl::Context& context() const { return device_->context(); }
    cl::CommandQueue& queue() { return queue_; }

    // Program from resources/kernels/<name>.cl (common.cl prepended), options as -D flags.
    cl::Program program(const std::string& kernelFile, const std::string& options = "");
    cl::Kernel kernel(const std::string& kernelFile, const std::string& kernelName,
                      const std::string& options = "");
    // The program of a recipe with these tunable values (every tunable passed, defaults for
    // those not given), from the device's cache; a kernel of it.
    cl::Program program(const ProgramRecipe& recipe, const TunableValues& values);
    cl::Kernel kernel(const ProgramRecipe& recipe, const TunableValues& values,
                      const std::string& kernelName);

    // Check the shape against the device and the kernel, round the global size up to a
    // multiple of the local size and enqueue; the event is recorded under label.
    void launch(cl::Kernel& kernel, const std::string& label, const LaunchShape& shape);

    // A new buffer, or one a finished session left in the device's pool (contents undefined,
    // as OpenCL's own).
    cl::Buffer allocate(std::size_t bytes, const std::string& what,
                        cl_mem_flags flags = CL_MEM_READ_WRITE);
    // Blocking: the host data may be freed or reused as soon as upload() returns.
    void upload(const cl::Buffer& buffer, const void* data, std::size_t bytes,
                const std::string& label);
    void download(const cl::Buffer& buffer, void* data, std::size_t bytes,
                  const std::string& label);
    void fill(const cl::Buffer& buffer, std::size_t bytes, const std::string& label);

    // Wait for everything queued and move the events' times into timings().
    void finish();
    TimingStats& timings() { return timings_; }
    // An event of this queue enqueued elsewhere, timed at finish().
    void record(const cl::Event& event, const std::string& label, bool kernel = false);

  private:
    cl::Buffer newBuffer(std::size_t bytes, const std::string& what, cl_mem_flags flags);
    template <class Enqueue> void enqueueRecorded(const std::string& label, Enqueue&& enqueue);
    std::shared_ptr<ClDevice> device_;
    cl::CommandQueue queue_;
    struct PendingEvent {
        cl::Event event;
        std::string label;
        bool kernel;
    };
    std::vector<PendingEvent> pending_;
    TimingStats timings_;
    // With the pool on: buffers handed out (for the pool at the end), and those the run has let
    // go of (reused by this session first).
    std::vector<SizedBuffer> allocated_, spares_;
    cl::Buffer reusedBuffer(std::size_t bytes, cl_mem_flags flags);
    static bool soleHolder(const cl::Buffer& buffer);
};

// Turn a cl::Error into a DeviceError that says what was being done and on which device.
[[noreturn]] void rethrowDeviceError(const cl::Error& e, const std::string& what,
                                     const DeviceInfo& device);

// Check a launch against device and kernel limits; returns the rounded global size.
std::vector<std::size_t> checkLaunch(const DeviceInfo& device, std::size_t kernelMaxGroup,
                                     std::uint64_t kernelLocalMem, const std::string& label,
                                     const LaunchShape& shape);

} // namespace clscope
