// One OpenCL run of azint: the per-geometry tables (each pixel's bin and normalisation, or the
// CSR matrix / sorted permutation) uploaded once, then the frames in chunks, each chunk's sums
// fetched into the result.
#include "core/azint/binning.hpp"
#include "core/azint/csr_matrix.hpp"
#include "core/range_pool.hpp"
#include "gpu/azint/azint_gpu.hpp"
#include "gpu/azint/recipes.hpp"
#include "gpu/runtime/cl_device.hpp"
#include "gpu/runtime/session.hpp"

#include <algorithm>

namespace clscope::azint {

namespace {

// A chunk of frames on the device: 256 MiB of frames and their sums, at least one frame.
constexpr std::size_t chunkBytes = std::size_t(256) << 20;

std::size_t frameBytesOf(const Array& frames) {
    return frames.frameSize() * dtypeSize(frames.dtype());
}

template <class T> cl::Buffer uploaded(ClSession& s, const std::vector<T>& v, const char* what) {
    cl::Buffer b = s.allocate(std::max<std::size_t>(1, v.size()) * sizeof(T), what);
    if (!v.empty()) s.upload(b, v.data(), v.size() * sizeof(T), std::string("copy H->D ") + what);
    return b;
}

template <class... Args> void setArgs(cl::Kernel& k, const Args&... args) {
    cl_uint index = 0;
    (k.setArg(index++, args), ...);
}

// The device side of a run: its tables, its output buffers and its kernel.
class DeviceRun {
  public:
    DeviceRun(const Job& job, Method method)
        : job_(job), method_(method), session_(job.device),
          map_(computePixelMap(*job.geometry, *job.params, job.input->frames.height(),
                               job.input->frames.width(), job.input->mask, job.input->pixelMask)),
          binning_(computeBinning(map_, *job.params)),
          result_(resultFor(binning_, *job.params, job.input->frames.frameCount())) {}

    RunOutput run() {
        try {
            prepare();
            const std::size_t frames = result_.frames,
                              frameBytes = frameBytesOf(job_.input->frames);
            const std::size_t chunk = chunkFrames(frameBytes);
            allocateChunk(chunk, frameBytes);
            for (std::size_t first = 0; first < frames; first += chunk) {
                job_.progress.checkCancel();
                runChunk(first, std::min(chunk, frames - first));
                job_.progress.report(double(std::min(first + chunk, frames)) / double(frames));
            }
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
    std::size_t chunkFrames(std::size_t frameBytes) const {
        const std::size_t frames = std::max<std::size_t>(1, result_.frames);
        const auto tuned = job_.tuning.find("AZ_CHUNK_FRAMES");
        if (tuned != job_.tuning.end() && tuned->second > 0)
            return std::min(frames, std::size_t(tuned->second));
        const std::size_t perFrame = std::max<std::size_t>(1, frameBytes + 20 * binning_.bins());
        return std::clamp<std::size_t>(chunkBytes / perFrame, 1, frames);
    }

    std::string programName() const {
        return method_ == Method::Histogram ? histogramProgram
               : method_ == Method::Csr     ? csrProgram
                                            : sortedProgram;
    }

    std::string kernelName() const {
        if (method_ != Method::Histogram) return programName();
        return values_.at("AZ_LOCAL_BINS") == "0" ? "azint_histogram" : "azint_histogram_local";
    }

    // The tables of the method and the kernel.
    void prepare() {
        recipe_ = job_.programs.apply(recipeOf(programName()));
        values_ = recipe_.resolve(job_.programs.over(
            hostValues(job_.input->frames.dtype(), binning_.bins(), job_.device, job_.tuning)));
        kernel_ = session_.kernel(recipe_, values_, kernelName());
        if (method_ == Method::Histogram) {
            tableA_ = uploaded(session_, binning_.binOfPixel, "azint bins");
            tableB_ = uploaded(session_, map_.normalization, "azint normalization");
            return;
        }
        const CsrMatrix csr(binning_.binOfPixel, binning_.bins());
        std::vector<double> norm(csr.nonZeros());
        parallelRanges(norm.size(), 64, [&](std::size_t i0, std::size_t i1) {
            for (std::size_t i = i0; i < i1; ++i)
                norm[i] = map_.normalization[static_cast<std::size_t>(csr.pixels()[i])];
        });
        entries_ = csr.nonZeros();
        tableA_ = uploaded(session_, csr.pixels(), "azint csr pixels");
        tableB_ = uploaded(session_, norm, "azint csr normalization");
        if (method_ == Method::Csr) {
            tableC_ = uploaded(session_, csr.rowStart(), "azint csr rows");
            return;
        }
        std::vector<std::int32_t> binOfEntry(entries_);
        parallelRanges(csr.rows(), 64, [&](std::size_t b0, std::size_t b1) {
            for (std::size_t b = b0; b < b1; ++b)
                std::fill(binOfEntry.begin() + csr.rowStart()[b],
                          binOfEntry.begin() + csr.rowStart()[b + 1], static_cast<std::int32_t>(b));
        });
        tableC_ = uploaded(session_, binOfEntry, "azint sorted bins");
    }

    void allocateChunk(std::size_t chunk, std::size_t frameBytes) {
        const std::size_t sums = chunk * binning_.bins();
        frames_ = session_.allocate(chunk * frameBytes, "azint frames");
        signal_ = session_.allocate(std::max<std::size_t>(1, sums) * 8, "azint sum signal");
        norm_ = session_.allocate(std::max<std::size_t>(1, sums) * 8, "azint sum normalization");
        count_ = session_.allocate(std::max<std::size_t>(1, sums) * 4, "azint count");
    }

    void setKernelArgs() {
        const cl_uint pixels = cl_uint(map_.normalization.size()), bins = cl_uint(binning_.bins());
        if (method_ == Method::Histogram)
            setArgs(kernel_, frames_, tableA_, tableB_, pixels, bins, signal_, norm_, count_);
        else if (method_ == Method::Csr)
            setArgs(kernel_, frames_, tableC_, tableA_, tableB_, pixels, bins, signal_, norm_,
                    count_);
        else
            setArgs(kernel_, frames_, tableA_, tableC_, tableB_, cl_uint(entries_), pixels, bins,
                    signal_, norm_, count_);
    }

    std::size_t extent() const {
        return method_ == Method::Histogram ? map_.normalization.size()
               : method_ == Method::Csr     ? binning_.bins()
                                            : entries_;
    }

    void runChunk(std::size_t first, std::size_t frames) {
        const std::size_t frameBytes = frameBytesOf(job_.input->frames);
        const std::size_t sums = frames * binning_.bins();
        if (!sums) return;
        session_.upload(frames_, job_.input->frames.bytes() + first * frameBytes,
                        frames * frameBytes, "copy H->D frames");
        if (method_ != Method::Csr) { // the atomics add to zeroed sums
            session_.fill(signal_, sums * 8, "fill sum signal");
            session_.fill(norm_, sums * 8, "fill sum normalization");
            session_.fill(count_, sums * 4, "fill count");
        }
        setKernelArgs();
        if (extent())
            session_.launch(kernel_, "azint " + kernelName(),
                            recipe_.shape(kernelName(), values_, {extent(), frames}));
        fetch(first * binning_.bins(), sums);
    }

    void fetch(std::size_t at, std::size_t sums) {
        session_.download(signal_, result_.sumSignal.data() + at, sums * 8, "copy D->H sums");
        session_.download(norm_, result_.sumNormalization.data() + at, sums * 8, "copy D->H sums");
        std::vector<cl_uint> count(sums);
        session_.download(count_, count.data(), sums * 4, "copy D->H counts");
        std::copy(count.begin(), count.end(), result_.count.begin() + std::ptrdiff_t(at));
    }

    const Job& job_;
    Method method_;
    ClSession session_;
    PixelMap map_;
    Binning binning_;
    Result result_;
    ProgramRecipe recipe_{"", {}, {}};
    TunableValues values_;
    cl::Kernel kernel_;
    cl::Buffer tableA_, tableB_, tableC_, frames_, signal_, norm_, count_;
    std::size_t entries_ = 0;
};

} // namespace

RunOutput runOnDevice(const Job& job, Method method) {
    checkParams(*job.params);
    checkInput(*job.input);
    return DeviceRun(job, method).run();
}

} // namespace clscope::azint
