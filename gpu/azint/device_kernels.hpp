// The device side of an OpenCL azint run on a session: the per-geometry tables (uploaded once,
// or kept from the last run of the same geometry: prepared_geometry.hpp), the program's kernels
// and the sums of a chunk of frames. A chunk's frames in a device buffer are summed (launch) and
// their sums fetched into rows of the result (fetch). A file run streams its chunks up
// (device_run.cpp); the streaming pipeline decodes them into its stage's buffer
// (stream_stage.cpp).
#pragma once
#include "core/azint/azint.hpp"
#include "core/azint/binning.hpp"
#include "gpu/azint/azint_gpu.hpp"
#include "gpu/azint/prepared_geometry.hpp"
#include "gpu/runtime/session.hpp"

#include <map>
#include <memory>
#include <string>

namespace clscope::azint {

// What the kernels are made for: the device and method, the geometry and parameters, the frames'
// shape and type, the masks, and the request's programs and tuning.
struct KernelSetup {
    DeviceInfo device;
    Method method = Method::Csr;
    const Geometry* geometry = nullptr;
    const Params* params = nullptr;
    std::size_t height = 0, width = 0;
    DType dtype = DType::UInt16;
    const PixelMask* mask = nullptr;
    const PixelMask* pixelMask = nullptr;
    ProgramOverrides programs;
    std::map<std::string, int> tuning;
};

class DeviceKernels {
  public:
    // The tables prepared (or kept) and the kernels built; cl::Error as the session gives it.
    DeviceKernels(ClSession& session, const KernelSetup& setup);

    const Binning& binning() const { return prepared_->binning; }
    // Frames a chunk of at most `frames` holds: its frames and sums (20 bytes a bin) within 64
    // MiB, or the host tuning AZ_CHUNK_FRAMES (no program's tunable; the tests' way to make many
    // chunks).
    std::size_t chunkFrames(std::size_t frames) const;
    // Sum buffers for chunks of up to `chunk` frames.
    void allocateSums(std::size_t chunk);
    // The kernels of `count` frames at `frames` (frame i at i * frame bytes), queued.
    void launch(const cl::Buffer& frames, std::size_t count);
    // Their sums into the result's frames [first, first + count) (waits for them).
    void fetch(Result& result, std::size_t first, std::size_t count);

  private:
    std::string programName() const;
    std::string kernelName() const;
    bool intSums() const { return values_.at("AZ_INT_SUM") == "1"; }
    // Counts started at the bins' binned pixels (histogram, tiled: AZ_STATIC_COUNTS).
    bool staticCounts() const;
    bool csrGroups() const; // csr's work-group per bin (integer sums only)
    std::size_t extent() const;
    void build();
    void startCounts(std::size_t chunk);
    void setKernelArgs(const cl::Buffer& frames, std::size_t frameCount);

    ClSession& session_;
    KernelSetup setup_;
    std::shared_ptr<const PreparedGeometry> prepared_;
    const DeviceTables& tables_;
    std::size_t pixels_, frameBytes_;
    ProgramRecipe recipe_{"", {}, {}};
    TunableValues values_;
    cl::Kernel kernel_, normKernel_;
    cl::Buffer signal_, norm_, count_;
    cl::Buffer countStart_; // with static counts: the tables' binCount in each frame's row
};

} // namespace clscope::azint
