// The device side of an xpcs run shared by the OpenCL variants: buffers, chunk loop, frame
// sums, lag sums and two-time maps. A variant only says how it lays out a chunk and how it
// fills the Gram matrices (internal to gpu/xpcs).
#pragma once
#include "gpu/recipe.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/plan.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"

#include <cstdint>
#include <functional>
#include <map>

namespace clscope::xpcs {

// Bytes of one gram / sums element (SUM_T) for a frame dtype.
constexpr std::size_t sumBytes = 8;

// Device state of one run, handed to the variant's Gram step for each chunk.
struct DeviceRun {
    explicit DeviceRun(ClSession& s) : session(s) {}
    ClSession& session;
    ProgramOverrides programs;         // the run's (RunRequest::programs)
    TunableValues values;              // of every program of the run: host, tuning table, --tune
    std::string program;               // the variant's program (recipes.hpp): Gram step and chunk
    std::map<std::string, int> tuning; // values as integers, as the host plans with them
    int frames = 0, framePad = 0, binCount = 0, slots = 1;
    int stride = 0;       // xpcs_pixel stride of the chunk layout
    bool twotime = false; // two-time maps asked for (they read the Gram matrices)
    bool fused = false;   // the variant's Gram step makes the lag sums (no Gram matrices)
    std::size_t gramElement = sumBytes; // bytes of a Gram entry: GRAM_T, 4 where uint
    cl::Buffer data;                    // the chunk in the variant's layout
    cl::Buffer pixels;                  // chunk source indices (layout 0 reads pixels through them)
    cl::Buffer offsets, gram, sums, work, pixelCounts;
    std::size_t rawBytes = 0; // of the raw-frames buffer, allocated on first use (rawBuffer)
    cl::Buffer raw;
    // > 0: the run correlates value planes (xpcs::splitValues, frames = 2T) of frames whose
    // 64-bit sums could overflow; planeStatistics joins their Gram matrices on the host.
    int planeShift = 0;
    // XPCS_CPU: the kernels' CPU-device code paths (set for CPU devices, see xpcs_common.cl and
    // xpcs_gemm.cl).
    bool onCpu() const {
        const auto it = tuning.find("XPCS_CPU");
        return it != tuning.end() && it->second != 0;
    }
};

// What distinguishes one OpenCL variant from another.
struct GpuVariant {
    std::string id;
    std::string program; // its program (recipes.hpp): Gram kernels, reorder, frame sums
    // Tuning values for a device and frame dtype (the tuning table, merged under
    // Params::tuning).
    std::function<std::map<std::string, int>(const DeviceInfo&, DType)> tuning;
    std::function<LayoutSpec(const std::map<std::string, int>&)> layout;
    // Gram slots (split-K pieces summed by xpcs_lag_sums); 1 for most variants.
    std::function<int(const DeviceInfo&, const Bins&, int framePad,
                      const std::map<std::string, int>&)>
        slots;
    // Fill gram for one chunk: store (accumulate = 0) or add (1).
    std::function<void(DeviceRun&, const Chunk&, int accumulate)> gramStep;
    // Optional: upload the chunk's frames and make its layout and frame sums (the pixels and
    // offsets are on the device; rawBuffer gives the raw-frames buffer). Empty: the shared upload
    // and reorder before gramStep, frame sums after it.
    std::function<void(DeviceRun&, const Array& frames, const Chunk&, int accumulate)> prepare;
    // Optional: whether the Gram step of this run (its chunks planned) makes the lag sums itself
    // (DeviceRun::fused: the runner allocates no Gram matrices, gram is the variant's to use);
    // fusedLags then fills g2 and g2_err
    // (device buffers of bins x frames doubles) after the last chunk.
    std::function<bool(const DeviceRun&, const std::vector<Chunk>&)> fuses;
    std::function<void(DeviceRun&, const cl::Buffer& g2, const cl::Buffer& g2Err)> fusedLags;
    // Optional: the variant's own limits on --tune values (UsageError), beyond every dense
    // variant's (variants.cpp).
    std::function<void(const std::map<std::string, int>&)> checkTuning;
    // Optional: whether this run's Gram matrices may be 32-bit (GRAM_T uint): the host's
    // decision from the bins, dtype and tuning, where every entry is known to stay below 2^32.
    std::function<bool(const Bins&, DType, const std::map<std::string, int>&)> gram32;
};

// The run's raw-frames buffer (allocated on the first call).
const cl::Buffer& rawBuffer(DeviceRun& run);

// Kernel `kernel` of the run's program `program` (its declaration with the run's program
// overrides applied), built with the run's tunable values and `extra` over them; registers > 0
// caps its registers on NVIDIA (the recipe's base options).
cl::Kernel programKernel(DeviceRun& run, const std::string& program, const std::string& kernel,
                         const TunableValues& extra = {}, int registers = 0);

// One run of the variant over every bin of mask (gpu/xpcs/runner.cpp).
Result runBins(const DeviceInfo& device, const GpuVariant& variant, const Array& frames,
               const LabelMask& mask, const Params& params, const Progress& progress,
               const ProgramOverrides& programs);

// runBins, on a CPU device in groups of bins that fit hostBudget (gpu/xpcs/bin_groups.cpp).
Result runOnDevice(const DeviceInfo& device, const GpuVariant& variant, const Array& frames,
                   const LabelMask& mask, const Params& params, const Progress& progress,
                   const ProgramOverrides& programs);

// Host memory a CPU device's chunk buffers may each take (issue 13: a run peaks near 1.5x the
// frames).
std::uint64_t hostBudget(const Array& frames);

// The host's values for the programs of a run (fromInput): DATA_T and SUM_T of a frame dtype
// (exact 64-bit integer sums for integer data), the layout, and the Gram entry type (uint where
// the host has found every entry below 2^32: XPCS_NARROW).
TunableValues hostValues(DType d, Layout layout, bool gram32);
// The tuning a run plans and builds with: `base` (the variant's table), --tune over it, the
// program overrides' integers over both.
std::map<std::string, int> runTuning(std::map<std::string, int> base, const Params& params,
                                     const ProgramOverrides& programs);
// The run's program, overrides, tuning and program values: the tuning's, with the host's
// (hostValues) over them.
void configure(DeviceRun& run, const std::map<std::string, int>& tuning, DType d, Layout layout,
               bool gram32, const ProgramOverrides& programs, const std::string& program);
// The bins' pixel counts on the device (run.pixelCounts), for the lag sums.
void uploadPixelCounts(DeviceRun& run, const Bins& bins);
// Device memory a run may plan with: 80 % of the device's.
std::uint64_t usableBytes(const DeviceInfo& dev);
// DeviceError: `subject` (e.g. "xpcs: the Gram matrices") needs `bytes`, more than the device
// holds; `advice` says what to do instead.
[[noreturn]] void refuseGram(const DeviceInfo& dev, const std::string& subject, std::uint64_t bytes,
                             const std::string& advice);
// g2 and g2_err from the run's Gram diagonals and frame sums, on the device (or the variant's
// fused lag sums), into result.
void lagSums(DeviceRun& run, const GpuVariant& variant, Result& result);
// Two-time maps of the bins result.twotime asks for, from the run's Gram matrices (slots
// summed) and frame sums (gpu/xpcs/twotime_maps.cpp); nothing when none is asked.
void twotimeMaps(DeviceRun& run, const Bins& bins, DType d, Result& result);

// Timing entry of a run of value planes (DeviceRun::planeShift): says which path ran.
inline constexpr const char* valuePlanesTiming = "xpcs value planes, exact 128-bit Gram (host)";

// g2, g2_err and the two-time maps of a run of value planes: its Gram matrices (slots summed)
// and frame sums downloaded, joined into the frames' exact ones (xpcs::planeGram) and reduced
// as the cpu reference does (xpcs::finishBinExact): bit-identical to it
// (gpu/xpcs/twotime_maps.cpp).
void planeStatistics(DeviceRun& run, const Bins& bins, Result& result);

// Raw frames of the chunk's rows, as one (T, rows*W) block into raw (blocking).
void uploadRaw(ClSession& s, const cl::Buffer& raw, const Array& frames, const Chunk& c);

// Set the arguments of a kernel in order.
template <class... Args> void setArgs(cl::Kernel& kernel, const Args&... args) {
    cl_uint index = 0;
    (kernel.setArg(index++, args), ...);
}

} // namespace clscope::xpcs
