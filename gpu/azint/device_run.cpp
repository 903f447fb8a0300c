// One OpenCL run of azint: the per-geometry tables (device_tables.hpp) uploaded once, or kept
// from the last run of the same geometry (prepared_geometry.hpp), then the frames in chunks
// streamed up while the kernels of the chunk before run (StreamUpload), each chunk's sums
// fetched into the result.
#include "core/azint/binning.hpp"
#include "gpu/azint/azint_gpu.hpp"
#include "gpu/azint/prepared_geometry.hpp"
#include "gpu/azint/recipes.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/runtime/staging.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

namespace clscope::azint {

namespace {

// A chunk of frames on the device: 64 MiB of frames and their sums, at least one frame (as
// spots: small enough that the first chunk's upload, which no kernel hides, is short).
constexpr std::size_t chunkBytes = std::size_t(64) << 20;

std::size_t frameBytesOf(const Array& frames) {
    return frames.frameSize() * dtypeSize(frames.dtype());
}

template <class... Args> void setArgs(cl::Kernel& k, const Args&... args) {
    cl_uint index = 0;
    (k.setArg(index++, args), ...);
}

// The device side of a run: its tables, its output buffers and its kernels.
class DeviceRun {
  public:
    DeviceRun(const Job& job, Method method)
        : job_(job), method_(method), session_(job.device),
          prepared_(prepare(job, method, session_)), binning_(prepared_->binning),
          tables_(*prepared_->tables),
          result_(resultFor(binning_, *job.params, job.input->frames.frameCount())),
          pixels_(job.input->frames.frameSize()), frameBytes_(frameBytesOf(job.input->frames)) {}

    RunOutput run() {
        try {
            build();
            stream();
            session_.finish();
        } catch (const cl::Error& e) {
            rethrowDeviceError(e, "azint", job_.device);
        }
        finishResult(result_);
        return {std::move(result_), session_.timings().records()};
    }

  private:
    // Frames a chunk holds: its frames and sums (20 bytes a bin) within chunkBytes, or the
    // host tuning AZ_CHUNK_FRAMES (no program's tunable; the tests' way to make many chunks).
    std::size_t chunkFrames() const {
        const std::size_t frames = std::max<std::size_t>(1, result_.frames);
        const auto tuned = job_.tuning.find("AZ_CHUNK_FRAMES");
        if (tuned != job_.tuning.end() && tuned->second > 0)
            return std::min(frames, std::size_t(tuned->second));
        const std::size_t perFrame = std::max<std::size_t>(1, frameBytes_ + 20 * binning_.bins());
        return std::clamp<std::size_t>(chunkBytes / perFrame, 1, frames);
    }

    std::string programName() const {
        return method_ == Method::Histogram ? histogramProgram
               : method_ == Method::Csr     ? csrProgram
                                            : sortedProgram;
    }

    bool intSums() const { return values_.at("AZ_INT_SUM") == "1"; }
    // csr's work-group per bin (integer sums only).
    bool csrGroups() const {
        return method_ == Method::Csr && intSums() && values_.at("AZ_CSR_GROUP") == "1";
    }

    std::string kernelName() const {
        if (method_ == Method::Csr) return csrGroups() ? "azint_csr_group" : "azint_csr";
        if (method_ == Method::Sorted) return intSums() ? "azint_sorted_runs" : "azint_sorted";
        return values_.at("AZ_LOCAL_BINS") == "0" ? "azint_histogram" : "azint_histogram_local";
    }

    // The bins and the tables: those kept from a run of the same geometry, else made.
    static std::shared_ptr<const PreparedGeometry> prepare(const Job& job, Method method,
                                                           ClSession& session) {
        const Input& in = *job.input;
        // spec and key: two cards of one kind share key() but not their buffers.
        const GeometryKey key{job.device.spec + "|" + job.device.key(),
                              method,
                              *job.geometry,
                              *job.params,
                              in.frames.height(),
                              in.frames.width(),
                              &in.mask,
                              &in.pixelMask};
        return preparedGeometry(key, [&] {
            const PixelMap map = computePixelMap(*job.geometry, *job.params, in.frames.height(),
                                                 in.frames.width(), in.mask, in.pixelMask);
            PreparedGeometry prepared{computeBinning(map, *job.params), nullptr};
            prepared.tables =
                std::make_shared<DeviceTables>(session, map, prepared.binning, *job.params, method);
            return prepared;
        });
    }

    // The program's values and its kernels.
    void build() {
        recipe_ = job_.programs.apply(recipeOf(programName()));
        const RunShape shape{job_.input->frames.dtype(), binning_.bins(), tables_.longestBin()};
        values_ = recipe_.resolve(job_.programs.over(hostValues(shape, job_.device, job_.tuning)));
        kernel_ = session_.kernel(recipe_, values_, kernelName());
        if (!tables_.unitNorm()) normKernel_ = session_.kernel(recipe_, values_, "azint_norm");
    }

    void stream() {
        const std::size_t chunk = chunkFrames(), frames = result_.frames;
        const std::size_t chunks = (frames + chunk - 1) / chunk;
        allocateSums(chunk);
        auto framesOf = [&](std::size_t i) { return std::min(chunk, frames - i * chunk); };
        auto data = [&](std::size_t i) {
            return job_.input->frames.bytes() + i * chunk * frameBytes_;
        };
        auto enqueue = [&](std::size_t i, const cl::Buffer& buffer) {
            launchChunk(buffer, framesOf(i));
        };
        auto drain = [&](std::size_t i) {
            fetch(i * chunk * binning_.bins(), framesOf(i));
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

    void allocateSums(std::size_t chunk) {
        const std::size_t sums = std::max<std::size_t>(1, chunk * binning_.bins());
        signal_ = session_.allocate(sums * 8, "azint sum signal");
        count_ = session_.allocate(sums * 4, "azint count");
        if (!tables_.unitNorm()) norm_ = session_.allocate(sums * 8, "azint sum normalization");
    }

    void setKernelArgs(const cl::Buffer& frames, std::size_t frameCount) {
        const cl_uint pixels = cl_uint(pixels_), bins = cl_uint(binning_.bins());
        const DeviceTables& t = tables_;
        if (method_ == Method::Histogram)
            setArgs(kernel_, frames, t.binOfPixel, pixels, bins, signal_, count_);
        else if (csrGroups())
            setArgs(kernel_, frames, t.rowStart, t.rowPixels, pixels, bins, cl_uint(frameCount),
                    signal_, count_);
        else if (method_ == Method::Csr)
            setArgs(kernel_, frames, t.rowStart, t.rowPixels, pixels, bins, signal_, count_);
        else
            setArgs(kernel_, frames, t.rowPixels, t.entryBin, cl_uint(t.entries()), pixels, bins,
                    cl_uint(frameCount), signal_, count_);
        if (!t.unitNorm())
            setArgs(normKernel_, frames, t.rowStart, t.rowPixels, t.rowNorm, t.binNorm, pixels,
                    bins, count_, norm_);
    }

    // Work elements of the kernel's first dimension.
    std::size_t extent() const {
        if (method_ == Method::Histogram) return pixels_;
        if (method_ == Method::Sorted) return tables_.entries();
        if (!csrGroups()) return binning_.bins();
        return binning_.bins() * std::stoul(values_.at("AZ_CSR_WG")); // a group per bin
    }

    void launchChunk(const cl::Buffer& frames, std::size_t frameCount) {
        const std::size_t sums = frameCount * binning_.bins();
        if (!sums) return;
        if (method_ != Method::Csr) { // the atomics add to zeroed sums
            session_.fill(signal_, sums * 8, "fill sum signal");
            session_.fill(count_, sums * 4, "fill count");
        }
        setKernelArgs(frames, frameCount);
        if (extent())
            session_.launch(kernel_, "azint " + kernelName(),
                            recipe_.shape(kernelName(), values_, {extent(), frameCount}));
        if (!tables_.unitNorm())
            session_.launch(normKernel_, "azint azint_norm",
                            recipe_.shape("azint_norm", values_, {binning_.bins(), frameCount}));
    }

    // The chunk's sums: integer signal sums (exact, < 2^53) and counts made doubles here; the
    // normalisation sums are the counts where every c is 1.
    void fetch(std::size_t at, std::size_t frames) {
        const std::size_t sums = frames * binning_.bins();
        if (!sums) return;
        double* signal = result_.sumSignal.data() + at;
        session_.download(signal_, signal, sums * 8, "copy D->H sums");
        if (intSums())
            for (std::size_t i = 0; i < sums; ++i) {
                std::int64_t s;
                std::memcpy(&s, signal + i, 8);
                signal[i] = static_cast<double>(s);
            }
        std::vector<cl_uint> count(sums);
        session_.download(count_, count.data(), sums * 4, "copy D->H counts");
        std::copy(count.begin(), count.end(), result_.count.begin() + std::ptrdiff_t(at));
        if (!tables_.unitNorm())
            session_.download(norm_, result_.sumNormalization.data() + at, sums * 8,
                              "copy D->H sums");
        else
            std::copy(count.begin(), count.end(),
                      result_.sumNormalization.begin() + std::ptrdiff_t(at));
    }

    const Job& job_;
    Method method_;
    ClSession session_;
    std::shared_ptr<const PreparedGeometry> prepared_;
    const Binning& binning_;
    const DeviceTables& tables_;
    Result result_;
    std::size_t pixels_, frameBytes_;
    ProgramRecipe recipe_{"", {}, {}};
    TunableValues values_;
    cl::Kernel kernel_, normKernel_;
    cl::Buffer signal_, norm_, count_;
};

} // namespace

RunOutput runOnDevice(const Job& job, Method method) {
    checkParams(*job.params);
    checkInput(*job.input);
    try {
        return DeviceRun(job, method).run();
    } catch (const cl::Error& e) { // the tables' uploads, made with the run
        rethrowDeviceError(e, "azint", job.device);
    }
}

} // namespace clscope::azint
