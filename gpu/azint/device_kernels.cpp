#include "gpu/azint/device_kernels.hpp"

#include "gpu/azint/recipes.hpp"
#include "gpu/runtime/cl_device.hpp"

#include <algorithm>
#include <cstring>

namespace clscope::azint {

namespace {

// A chunk of frames on the device: 64 MiB of frames and their sums, at least one frame (as
// spots: small enough that the first chunk's upload, which no kernel hides, is short).
constexpr std::size_t chunkBytes = std::size_t(64) << 20;

template <class... Args> void setArgs(cl::Kernel& k, const Args&... args) {
    cl_uint index = 0;
    (k.setArg(index++, args), ...);
}

// The bins and the tables: those kept from a run of the same geometry, else made.
std::shared_ptr<const PreparedGeometry> prepare(const KernelSetup& s, ClSession& session) {
    // spec and key: two cards of one kind share key() but not their buffers.
    const GeometryKey key{s.device.spec + "|" + s.device.key(),
                          s.method,
                          *s.geometry,
                          *s.params,
                          s.height,
                          s.width,
                          s.mask,
                          s.pixelMask,
                          s.method == Method::Tiled ? tileShape(s.programs, s.tuning)
                                                    : TileShape{}};
    return preparedGeometry(key, [&] {
        const PixelMap map =
            computePixelMap(*s.geometry, *s.params, s.height, s.width, *s.mask, *s.pixelMask);
        PreparedGeometry prepared{computeBinning(map, *s.params), nullptr};
        prepared.tables = std::make_shared<DeviceTables>(session, map, prepared.binning, *s.params,
                                                         s.method, key.tiles);
        return prepared;
    });
}

} // namespace

DeviceKernels::DeviceKernels(ClSession& session, const KernelSetup& setup)
    : session_(session), setup_(setup), prepared_(prepare(setup, session)),
      tables_(*prepared_->tables), pixels_(setup.height * setup.width),
      frameBytes_(pixels_ * dtypeSize(setup.dtype)) {
    build();
}

std::size_t DeviceKernels::chunkFrames(std::size_t frames) const {
    frames = std::max<std::size_t>(1, frames);
    const auto tuned = setup_.tuning.find("AZ_CHUNK_FRAMES");
    if (tuned != setup_.tuning.end() && tuned->second > 0)
        return std::min(frames, std::size_t(tuned->second));
    const std::size_t perFrame = std::max<std::size_t>(1, frameBytes_ + 20 * binning().bins());
    return std::clamp<std::size_t>(chunkBytes / perFrame, 1, frames);
}

std::string DeviceKernels::programName() const {
    switch (setup_.method) {
    case Method::Histogram:
        return histogramProgram;
    case Method::Csr:
        return csrProgram;
    case Method::Sorted:
        return sortedProgram;
    case Method::Tiled:
        return tiledProgram;
    }
    return csrProgram;
}

bool DeviceKernels::staticCounts() const {
    const auto it = values_.find("AZ_STATIC_COUNTS");
    return it != values_.end() && it->second == "1";
}

bool DeviceKernels::csrGroups() const {
    return setup_.method == Method::Csr && intSums() && values_.at("AZ_CSR_GROUP") == "1";
}

std::string DeviceKernels::kernelName() const {
    if (setup_.method == Method::Csr) return csrGroups() ? "azint_csr_group" : "azint_csr";
    if (setup_.method == Method::Sorted) return intSums() ? "azint_sorted_runs" : "azint_sorted";
    if (setup_.method == Method::Tiled)
        return values_.at("AZ_TILE_SORTED") == "1" ? "azint_tiled_sorted" : "azint_tiled";
    return values_.at("AZ_LOCAL_BINS") == "0" ? "azint_histogram" : "azint_histogram_local";
}

// The program's values and its kernels.
void DeviceKernels::build() {
    recipe_ = setup_.programs.apply(recipeOf(programName()));
    const RunShape shape{setup_.dtype, binning().bins(), tables_.longestBin(),
                         tables_.widestTile()};
    values_ =
        recipe_.resolve(setup_.programs.over(hostValues(shape, setup_.device, setup_.tuning)));
    checkProgramValues(shape, setup_.device, values_);
    if (const auto regs = values_.find("AZ_TILE_REGS");
        regs != values_.end() && regs->second != "0")
        recipe_.baseOptions(recipe_.baseOptions() +
                            registerCap(session_.info(), std::stoi(regs->second)));
    kernel_ = session_.kernel(recipe_, values_, kernelName());
    if (!tables_.unitNorm()) normKernel_ = session_.kernel(recipe_, values_, "azint_norm");
}

void DeviceKernels::allocateSums(std::size_t chunk) {
    const std::size_t sums = std::max<std::size_t>(1, chunk * binning().bins());
    signal_ = session_.allocate(sums * 8, "azint sum signal");
    count_ = session_.allocate(sums * 4, "azint count");
    if (!tables_.unitNorm()) norm_ = session_.allocate(sums * 8, "azint sum normalization");
    if (staticCounts()) startCounts(chunk);
}

// The counts' start of a chunk's frames: the tables' binned pixels of each bin, in each frame's
// row (its first row copied, then the rows made so far doubled: one copy a launch after this).
void DeviceKernels::startCounts(std::size_t chunk) {
    const std::size_t row = binning().bins() * 4;
    countStart_ = session_.allocate(std::max<std::size_t>(1, chunk * row), "azint count start");
    session_.copy(tables_.binCount, 0, countStart_, 0, row, "copy D->D count start");
    for (std::size_t made = 1; made < chunk; made *= 2)
        session_.copy(countStart_, 0, countStart_, made * row, std::min(made, chunk - made) * row,
                      "copy D->D count start");
}

void DeviceKernels::setKernelArgs(const cl::Buffer& frames, std::size_t frameCount) {
    const cl_uint pixels = cl_uint(pixels_), bins = cl_uint(binning().bins());
    const DeviceTables& t = tables_;
    if (setup_.method == Method::Histogram)
        setArgs(kernel_, frames, t.binOfPixel, pixels, bins, signal_, count_);
    else if (csrGroups())
        setArgs(kernel_, frames, t.rowStart, t.rowPixels, pixels, bins, cl_uint(frameCount),
                signal_, count_);
    else if (setup_.method == Method::Csr)
        setArgs(kernel_, frames, t.rowStart, t.rowPixels, pixels, bins, signal_, count_);
    else if (setup_.method == Method::Tiled && kernelName() == "azint_tiled_sorted")
        setArgs(kernel_, frames, t.tileSegments, t.segments, t.tileOrder, cl_uint(setup_.width),
                cl_uint(setup_.height), bins, cl_uint(frameCount), signal_, count_);
    else if (setup_.method == Method::Tiled)
        setArgs(kernel_, frames, t.tileSpans, t.tileOffsets, t.binOfPixel, cl_uint(setup_.width),
                cl_uint(setup_.height), bins, cl_uint(frameCount), signal_, count_);
    else
        setArgs(kernel_, frames, t.rowPixels, t.entryBin, cl_uint(t.entries()), pixels, bins,
                cl_uint(frameCount), signal_, count_);
    if (!t.unitNorm())
        setArgs(normKernel_, frames, t.rowStart, t.rowPixels, t.rowNorm, t.binNorm, pixels, bins,
                count_, norm_);
}

// Work elements of the kernel's first dimension.
std::size_t DeviceKernels::extent() const {
    if (setup_.method == Method::Histogram) return pixels_;
    if (setup_.method == Method::Sorted) return tables_.entries();
    if (setup_.method == Method::Tiled) // a group per tile
        return tables_.tiles() * std::stoul(values_.at("AZ_TILE_WG"));
    if (!csrGroups()) return binning().bins();
    return binning().bins() * std::stoul(values_.at("AZ_CSR_WG")); // a group per bin
}

void DeviceKernels::launch(const cl::Buffer& frames, std::size_t count) {
    const std::size_t sums = count * binning().bins();
    if (!sums) return;
    if (setup_.method != Method::Csr) { // the atomics add to zeroed sums and counts, or static
        session_.fill(signal_, sums * 8, "fill sum signal");
        if (staticCounts())
            session_.copy(countStart_, 0, count_, 0, sums * 4, "copy D->D count start");
        else
            session_.fill(count_, sums * 4, "fill count");
    }
    setKernelArgs(frames, count);
    if (extent())
        session_.launch(kernel_, "azint " + kernelName(),
                        recipe_.shape(kernelName(), values_, {extent(), count}));
    if (!tables_.unitNorm())
        session_.launch(normKernel_, "azint azint_norm",
                        recipe_.shape("azint_norm", values_, {binning().bins(), count}));
}

// The chunk's sums: integer signal sums (exact, < 2^53) and counts made doubles here; the
// normalisation sums are the counts where every c is 1.
void DeviceKernels::fetch(Result& result, std::size_t first, std::size_t count) {
    const std::size_t sums = count * binning().bins(), at = first * binning().bins();
    if (!sums) return;
    double* signal = result.sumSignal.data() + at;
    session_.download(signal_, signal, sums * 8, "copy D->H sums");
    if (intSums())
        for (std::size_t i = 0; i < sums; ++i) {
            std::int64_t s;
            std::memcpy(&s, signal + i, 8);
            signal[i] = static_cast<double>(s);
        }
    std::vector<cl_uint> counts(sums);
    session_.download(count_, counts.data(), sums * 4, "copy D->H counts");
    std::copy(counts.begin(), counts.end(), result.count.begin() + std::ptrdiff_t(at));
    if (!tables_.unitNorm())
        session_.download(norm_, result.sumNormalization.data() + at, sums * 8, "copy D->H sums");
    else
        std::copy(counts.begin(), counts.end(),
                  result.sumNormalization.begin() + std::ptrdiff_t(at));
}

} // namespace clscope::azint
