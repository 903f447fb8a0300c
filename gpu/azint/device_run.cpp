// One OpenCL run of azint over a file's frames: the device kernels (device_kernels.hpp) with
// their tables uploaded once or kept from the last run of the same geometry, then the frames in
// chunks streamed up while the kernels of the chunk before run (StreamUpload), each chunk's sums
// fetched into the result.
#include "gpu/azint/azint_gpu.hpp"
#include "gpu/azint/device_kernels.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/runtime/staging.hpp"

#include <algorithm>
#include <memory>

namespace clscope::azint {

namespace {

KernelSetup setupOf(const Job& job, Method method) {
    const Input& in = *job.input;
    return {job.device,         method,
            job.geometry,       job.params,
            in.frames.height(), in.frames.width(),
            in.frames.dtype(),  &in.mask,
            &in.pixelMask,      job.programs,
            job.tuning};
}

class DeviceRun {
  public:
    DeviceRun(const Job& job, Method method)
        : job_(job), session_(job.device), kernels_(session_, setupOf(job, method)),
          result_(resultFor(kernels_.binning(), *job.params, job.input->frames.frameCount())),
          frameBytes_(job.input->frames.frameSize() * dtypeSize(job.input->frames.dtype())) {}

    RunOutput run() {
        try {
            stream();
            session_.finish();
        } catch (const cl::Error& e) {
            rethrowDeviceError(e, "azint", job_.device);
        }
        finishResult(result_);
        return {std::move(result_), session_.timings().records()};
    }

  private:
    void stream() {
        const std::size_t frames = result_.frames, chunk = kernels_.chunkFrames(frames);
        const std::size_t chunks = (frames + chunk - 1) / chunk;
        kernels_.allocateSums(chunk);
        auto framesOf = [&](std::size_t i) { return std::min(chunk, frames - i * chunk); };
        auto data = [&](std::size_t i) {
            return job_.input->frames.bytes() + i * chunk * frameBytes_;
        };
        auto enqueue = [&](std::size_t i, const cl::Buffer& buffer) {
            kernels_.launch(buffer, framesOf(i));
        };
        auto drain = [&](std::size_t i) {
            kernels_.fetch(result_, i * chunk, framesOf(i));
            job_.progress.report(double(i * chunk + framesOf(i)) / double(frames));
            job_.progress.checkCancel();
        };
        if (chunks <= 1) { // one chunk goes up directly (pinning staging costs more than it saves)
            const cl::Buffer buffer =
                session_.allocate(std::max<std::size_t>(1, frames * frameBytes_), "azint frames");
            if (frames) session_.upload(buffer, data(0), frames * frameBytes_, "copy H->D frames");
            if (frames) enqueue(0, buffer), drain(0);
            return;
        }
        StreamUpload upload(
            session_, chunk * frameBytes_, "azint frames (stream)",
            uploadDepth(session_, job_.input->frames.bytes(), job_.input->frames.byteSize()));
        auto send = [&](std::size_t i) {
            upload.sendInPlace(i, data(i), framesOf(i) * frameBytes_, "copy H->D frames");
        };
        streamChunks(upload, chunks, send, enqueue, drain);
    }

    const Job& job_;
    ClSession session_;
    DeviceKernels kernels_;
    Result result_;
    std::size_t frameBytes_;
};

} // namespace

RunOutput runOnDevice(const Job& job, Method method) {
    checkParams(*job.params);
    checkInput(*job.input);
    try {
        return DeviceRun(job, method).run();
    } catch (const cl::Error& e) { // the tables' uploads and the builds, made with the run
        rethrowDeviceError(e, "azint", job.device);
    }
}

} // namespace clscope::azint
